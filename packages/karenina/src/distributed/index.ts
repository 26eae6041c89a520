export {
  FleetDatabaseError,
  FleetError,
  FleetRunNotFoundError,
  FleetWorkspaceMissingError,
} from "./errors.js";
export { type Fleet, isPostgresUrl, openFleet } from "./fleet.js";
export {
  FLEET_RUN_STATUSES,
  type FleetJob,
  FleetJobSchema,
  type FleetProgress,
  type FleetRun,
  type FleetRunSettings,
  FleetRunSettingsSchema,
  type FleetRunStatus,
  FleetRuns,
} from "./fleet-runs.js";
export { type FleetWorkerOptions, runFleetWorker, type WorkerEvent } from "./fleet-worker.js";
export { type FollowedRun, type FollowFleetRunOptions, followFleetRun } from "./follow-run.js";
export {
  FleetCallLimitsError,
  type FleetCallLimitsStats,
  PostgresCallLimits,
  type PostgresCallLimitsOptions,
} from "./postgres-call-limits.js";
export { PostgresResponseCache } from "./postgres-response-cache.js";
export { storedFleetConfig } from "./run-inputs.js";
export { type EnqueuedRun, resumeFleetRun, type StartFleetRunOptions, startFleetRun } from "./start-run.js";
export { DEFAULT_LEASE, DEFAULT_QUEUE, FleetQueue, type QueueLease } from "./task-queue.js";
