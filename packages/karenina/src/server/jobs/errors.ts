import { ApiError } from "../core/index.js";

/** A job id no job has. */
export function jobNotFound(id: string): ApiError {
  return new ApiError(
    404,
    "job_not_found",
    `job ${JSON.stringify(id)} not found; list the jobs to find its id`,
  );
}

/** An operation a job's state does not allow (cancel a finished job, resume a running one). */
export function jobStateConflict(id: string, status: string, wanted: string): ApiError {
  return new ApiError(
    409,
    "job_state_conflict",
    `job ${JSON.stringify(id)} is ${status}; it cannot be ${wanted}`,
    { status },
  );
}

/** A stored job of a kind this server has no handler for. */
export function unknownJobKind(kind: string): ApiError {
  return new ApiError(
    500,
    "unknown_job_kind",
    `no handler for jobs of kind ${JSON.stringify(kind)}; register one with JobRunner.register`,
  );
}
