/**
 * Server jobs (spec 07 §2.4): persisted rows with an event log, a runner that queues, cancels (AbortSignal),
 * resumes and streams them. A new kind of job: implement {@link JobKind} and `jobRunnerOf(deps).register(kind)`
 * in its route group; start with `runner.start(kind, input)`, and expose progress with the helpers of
 * `server/progress` (WebSocket and SSE).
 */
export { jobNotFound, jobStateConflict, unknownJobKind } from "./errors.js";
export { EventLog } from "./event-log.js";
export {
  JOB_EVENT_TYPES,
  type JobEvent,
  JobEventSchema,
  type JobEventType,
  type JobProgress,
  JobProgressSchema,
  type JobTask,
  type JobUsageTotals,
  JobUsageTotalsSchema,
  type TaskUsage,
  TaskUsageSchema,
} from "./job-events.js";
export {
  type JobContext,
  type JobKind,
  JobRunner,
  type JobRunnerOptions,
  type JobSubscriber,
  type JobView,
} from "./job-runner.js";
export { jobRunnerOf } from "./runner-of.js";
