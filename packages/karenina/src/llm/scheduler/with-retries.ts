import { LlmAbortedError, LlmCallError, RateLimitError } from "../errors.js";
import type { CategoryRetryConfig, RetryPolicy } from "../retry/index.js";
import { backoffDelayMs, type RandomSource, realSleep, type Sleep } from "./backoff.js";

/** A retryable error category: every {@link ErrorCategory} except `permanent`. */
export type RetryableCategory = "connection" | "timeout" | "rate_limit" | "server_error";

/** What {@link withRetries} reports before each retry. */
export interface RetryEvent {
  /** 1-based number of the attempt about to be made (the first retry is attempt 2). */
  attempt: number;
  /** The category of the error that caused the retry. */
  category: RetryableCategory;
  /** Retries already used in that category before this one (0-based index into its backoff sequence). */
  retriesUsed: number;
  /** How long the call waits before the retry, in milliseconds. */
  delayMs: number;
  /** The error that caused the retry. */
  error: LlmCallError;
}

/** Options of {@link withRetries}. */
export interface WithRetriesOptions {
  /** Per-category retry budgets and backoff (spec 04 §2.4). */
  policy: RetryPolicy;
  /** Aborts the call and any wait between attempts; `withRetries` then throws `LlmAbortedError`. */
  signal?: AbortSignal;
  /** Model or endpoint name used in the `LlmAbortedError` message. Default `"llm"`. */
  model?: string;
  /** Waits between attempts. Default: a real timer. */
  sleep?: Sleep;
  /** Jitter source in `[0, 1)`. Default `Math.random`. */
  random?: RandomSource;
  /** Called before each wait-and-retry; for progress displays and counters. */
  onRetry?: (event: RetryEvent) => void;
}

/**
 * Runs `call`, retrying it when it throws a retryable {@link LlmCallError} (rate limit, server error, connection,
 * timeout), each category with its own budget from `policy` and a jittered exponential backoff; a
 * {@link RateLimitError}'s `retryAfterSeconds` is the minimum wait. Non-retryable errors, errors that are not
 * `LlmCallError`s and `LlmAbortedError` are thrown at once. When `signal` aborts (before, during or between
 * attempts) it throws `LlmAbortedError`. When a category's budget is spent, the last error is thrown.
 *
 * `call` receives the 1-based attempt number. Wrap each attempt (not the whole retry loop) in
 * `CallScheduler.run` so that backoff never holds a concurrency permit, or use `CallScheduler.runWithRetries`.
 */
export async function withRetries<T>(
  call: (attempt: number) => Promise<T>,
  options: WithRetriesOptions,
): Promise<T> {
  const { policy, signal, model = "llm", sleep = realSleep, random = Math.random, onRetry } = options;
  const used: Record<RetryableCategory, number> = {
    connection: 0,
    timeout: 0,
    rate_limit: 0,
    server_error: 0,
  };
  for (let attempt = 1; ; attempt++) {
    if (signal?.aborted) throw new LlmAbortedError(model, signal.reason);
    try {
      return await call(attempt);
    } catch (error) {
      if (error instanceof LlmAbortedError) throw error;
      if (signal?.aborted) throw new LlmAbortedError(model, error);
      if (!(error instanceof LlmCallError) || !error.retryable) throw error;
      const category = error.category as RetryableCategory;
      const config: CategoryRetryConfig = policy[category];
      const retriesUsed = used[category];
      if (retriesUsed >= config.max_attempts) throw error;
      used[category] = retriesUsed + 1;
      let delayMs = backoffDelayMs(config, retriesUsed, random);
      if (error instanceof RateLimitError && error.retryAfterSeconds !== null) {
        delayMs = Math.max(delayMs, error.retryAfterSeconds * 1000);
      }
      onRetry?.({ attempt: attempt + 1, category, retriesUsed, delayMs, error });
      await waitOrAbort(sleep, delayMs, signal);
      if (signal?.aborted) throw new LlmAbortedError(model, signal.reason);
    }
  }
}

/** Sleeps, but returns as soon as `signal` aborts even if the injected sleep ignores the signal. */
async function waitOrAbort(sleep: Sleep, ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) {
    await sleep(ms);
    return;
  }
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<void>((resolve) => {
    onAbort = () => resolve();
    signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    await Promise.race([sleep(ms, signal), aborted]);
  } finally {
    if (onAbort) signal.removeEventListener("abort", onAbort);
  }
}
