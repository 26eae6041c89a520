import { CheckpointError } from "../../checkpoint/index.js";
import { ResultsFileError, VerificationResultError } from "../../results/index.js";
import {
  StorageInputError,
  StorageNotFoundError,
  StorageOpenError,
  StorageSchemaError,
} from "../../storage/index.js";
import { ApiError } from "../core/index.js";

/**
 * A library error of a database route as the client should see it: not found → 404, bad input (a checkpoint, a
 * results export, rows of unknown questions) → 422, a database that cannot be opened → 400, a newer schema → 409.
 * Anything else is rethrown (500).
 */
export function asApiError(error: unknown): never {
  if (error instanceof ApiError) throw error;
  if (error instanceof StorageNotFoundError) throw new ApiError(404, "not_found", error.message);
  if (error instanceof StorageOpenError) throw new ApiError(400, "database_unavailable", error.message);
  if (error instanceof StorageSchemaError) throw new ApiError(409, "schema_too_new", error.message);
  if (
    error instanceof StorageInputError ||
    error instanceof CheckpointError ||
    error instanceof ResultsFileError ||
    error instanceof VerificationResultError
  ) {
    throw new ApiError(422, "invalid_request", error.message);
  }
  throw error;
}

/** Runs a library call, turning its expected errors into {@link ApiError}s. */
export async function libraryCall<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    return asApiError(error);
  }
}
