export {
  backoffCapMs,
  backoffDelayMs,
  type RandomSource,
  realSleep,
  type Sleep,
} from "./backoff.js";
export {
  CallScheduler,
  type CallSchedulerOptions,
  type EndpointStats,
  type RunOptions,
  type RunWithRetriesOptions,
  SchedulerConfigError,
  type SchedulerStats,
} from "./call-scheduler.js";
export type { SharedCallLimits } from "./shared-limits.js";
export {
  type RetryableCategory,
  type RetryEvent,
  type WithRetriesOptions,
  withRetries,
} from "./with-retries.js";
