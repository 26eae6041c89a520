/**
 * Concurrency limits shared with other processes: a fleet of workers running one run together. A
 * {@link CallScheduler} given one holds a shared permit around every call it starts, after its own (local)
 * permits, so the global and per-endpoint limits hold across all the processes together.
 */
export interface SharedCallLimits {
  /**
   * Runs `call` while holding one shared permit of `endpointKey` and one of the shared global limit, waiting
   * until both are free and the endpoint is not paused. When `call` rejects with a `RateLimitError` (HTTP
   * 429), the endpoint is paused for every process (its `retryAfterSeconds`, else a default pause) and its
   * shared limit is cut; successes let it grow back to its cap. The permit is released however `call` ends.
   * Rejects with `LlmAbortedError` when `signal` aborts while waiting (the call is then never started).
   */
  hold<T>(endpointKey: string, call: () => Promise<T>, signal?: AbortSignal): Promise<T>;
}
