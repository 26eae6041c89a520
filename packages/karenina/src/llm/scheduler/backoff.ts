import type { CategoryRetryConfig } from "../retry/index.js";

/** Waits `ms` milliseconds; resolves early (never rejects) when `signal` aborts. Injectable for tests. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** A source of uniform random numbers in `[0, 1)`, like `Math.random`. Injectable for tests. */
export type RandomSource = () => number;

/**
 * The upper bound, in milliseconds, of the wait before retry `retriesUsed` (0-based) of one error category:
 * `min(backoff_min × backoff_multiplier^retriesUsed, backoff_max)` seconds (spec 04 §2.4).
 */
export function backoffCapMs(config: CategoryRetryConfig, retriesUsed: number): number {
  const seconds = Math.min(config.backoff_min * config.backoff_multiplier ** retriesUsed, config.backoff_max);
  return seconds * 1000;
}

/**
 * The jittered wait, in milliseconds, before retry `retriesUsed` (0-based) of one error category: uniform in
 * `[0, backoffCapMs(config, retriesUsed)]` ("full jitter", spec 04 §2.4).
 */
export function backoffDelayMs(
  config: CategoryRetryConfig,
  retriesUsed: number,
  random: RandomSource,
): number {
  const r = Math.min(Math.max(random(), 0), 1);
  return r * backoffCapMs(config, retriesUsed);
}

/** The default {@link Sleep}: a real timer, cleared when `signal` aborts. */
export const realSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve) => {
    if (signal?.aborted) {
      resolve();
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
