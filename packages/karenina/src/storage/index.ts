export type {
  DeletedBenchmark,
  DuplicateQuestion,
  DuplicateResolution,
  MergedBenchmark,
} from "./benchmark-admin.js";
export type { BenchmarkChangeSet, SavedBenchmarkChanges } from "./benchmark-changes.js";
export type { SaveBenchmarkOptions, SavedBenchmark, StoredBenchmark } from "./benchmarks.js";
export {
  StorageError,
  StorageInputError,
  StorageNotFoundError,
  StorageOpenError,
  StorageQueryError,
  StorageSchemaError,
} from "./errors.js";
export { IMPORT_FORMAT_VERSIONS, type ImportOptions, type ImportOutcome } from "./import.js";
export {
  FINAL_JOB_STATUSES,
  JOB_STATUSES,
  type JobChanges,
  type JobQuery,
  type JobRow,
  type JobStatus,
  type NewJob,
} from "./jobs.js";
export { SCHEMA_VERSION as STORAGE_SCHEMA_VERSION } from "./migrations.js";
export type { DigestPage } from "./result-digests.js";
export type { ResultQuery, SaveResultsOptions } from "./results.js";
export type { StoredRunSummary } from "./run-summaries.js";
export {
  FINAL_RUN_STATUSES,
  type FinalRunStatus,
  type FinishRunOptions,
  RUN_STATUSES,
  type RunFilter,
  type RunInfo,
  type RunQuery,
  type RunStatus,
  type StartRunOptions,
} from "./runs.js";
export { type OpenStorageOptions, openStorage, Storage } from "./storage.js";
export { TurnQuestions } from "./turn-questions.js";
export { DEFAULT_DB_FILE, describeStorageUrl } from "./url.js";
