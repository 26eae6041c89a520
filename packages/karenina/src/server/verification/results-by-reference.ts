import type { VerificationResult } from "../../results/index.js";
import type { ResultQuery, Storage } from "../../storage/index.js";
import { ApiError } from "../core/index.js";
import { type JobRunner, jobNotFound } from "../jobs/index.js";
import { VERIFICATION_JOB } from "./verification-job.js";

/** Stored results named by reference (spec 07 §2.4): by verification job, or by stored run name. */
export interface ResultReference {
  readonly job_id?: string;
  readonly run_name?: string;
}

/** Rows read per query: enough to be quick, few enough that the JSON texts of one page only are held. */
const PAGE = 2_000;

/**
 * The queries that read a reference's rows. A job's rows are its stored run's (none before it has started);
 * a run name matches every stored run of that name. @throws ApiError 404 for an unknown job or run name
 */
async function queryOf(
  storage: Storage,
  runner: JobRunner,
  ref: ResultReference,
): Promise<ResultQuery | null> {
  if (ref.job_id !== undefined) {
    const job = await runner.get(ref.job_id);
    if (job === null || job.kind !== VERIFICATION_JOB) throw jobNotFound(ref.job_id);
    return job.run_id === null ? null : { runId: job.run_id };
  }
  const name = ref.run_name ?? "";
  const [run] = await storage.listRuns({ runName: name, limit: 1 });
  if (run === undefined)
    throw new ApiError(
      404,
      "run_not_found",
      `no stored run is named ${JSON.stringify(name)}; list the stored runs to find its name`,
    );
  return { runName: name };
}

/**
 * The stored results of a reference, read a page at a time, optionally only those whose answering model's
 * `model_name` is one of `answeringModels`. @throws ApiError 404 for an unknown job or run name
 */
export async function resultsByReference(
  storage: Storage,
  runner: JobRunner,
  ref: ResultReference,
  answeringModels?: readonly string[],
): Promise<VerificationResult[]> {
  const query = await queryOf(storage, runner, ref);
  if (query === null) return [];
  const queries =
    answeringModels === undefined
      ? [query]
      : answeringModels.map((model) => ({ ...query, answeringModel: model }));
  const rows: VerificationResult[] = [];
  for (const q of queries) {
    for (let offset = 0; ; offset += PAGE) {
      const page = await storage.loadResults({ ...q, limit: PAGE, offset });
      rows.push(...page);
      if (page.length < PAGE) break;
    }
  }
  return rows;
}
