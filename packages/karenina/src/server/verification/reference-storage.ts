import type { Storage } from "../../storage/index.js";
import { ApiError } from "../core/index.js";
import type { DatabaseConnections } from "../databases/index.js";
import type { ResultReference } from "./results-by-reference.js";

/**
 * The database that holds the references' rows: connection `db` (default: the server's own). Jobs write to the
 * server's own database, so a `db` next to `job_ids` is refused rather than silently ignored.
 * @throws ApiError 422 for `db` with job references; 404 for an unknown connection
 */
export function storageOfReferences(
  connections: DatabaseConnections,
  db: string | undefined,
  refs: readonly ResultReference[],
): Storage {
  if (db !== undefined && refs.some((ref) => ref.job_id !== undefined))
    throw new ApiError(
      422,
      "invalid_request",
      "body.db: jobs' results are in the server's own database; leave db out with job_ids",
    );
  return connections.storage(db);
}
