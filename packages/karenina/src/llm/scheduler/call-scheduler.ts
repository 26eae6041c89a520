import { KareninaError } from "../../errors/index.js";
import { LlmAbortedError, RateLimitError } from "../errors.js";
import { realSleep, type Sleep } from "./backoff.js";
import type { SharedCallLimits } from "./shared-limits.js";
import { type WithRetriesOptions, withRetries } from "./with-retries.js";

/** A {@link CallScheduler} was given an impossible setting (a limit below 1, ...). */
export class SchedulerConfigError extends KareninaError {
  override readonly name: string = "SchedulerConfigError";

  constructor(
    readonly setting: string,
    readonly found: unknown,
  ) {
    super(`call scheduler: ${setting} must be an integer >= 1, found ${String(found)}`);
  }
}

/** Options of a {@link CallScheduler}. */
export interface CallSchedulerOptions {
  /** Process-wide cap on calls in flight. Default 16. */
  globalLimit?: number;
  /** Cap per endpoint key; keys not listed use `defaultEndpointLimit`. */
  endpointLimits?: Readonly<Record<string, number>>;
  /** Cap of endpoints not in `endpointLimits`. Default: `globalLimit`. */
  defaultEndpointLimit?: number;
  /** Consecutive successes after which a cut endpoint limit grows by 1 (up to its cap). Default 10. */
  recoverAfterSuccesses?: number;
  /** Pause, in seconds, after a 429 that carries no `Retry-After`. Default 0 (no pause, only the cut). */
  defaultRateLimitPauseSeconds?: number;
  /** Timer used for rate-limit pauses and, by default, retry backoff. Default: a real timer. */
  sleep?: Sleep;
  /** Clock in milliseconds, used to compare overlapping pauses. Default `Date.now`. */
  now?: () => number;
  /**
   * Limits shared with other processes (a fleet of workers): each call also holds one of their permits, taken
   * after this scheduler's own. Default none.
   */
  shared?: SharedCallLimits | null;
}

/** Counters of one endpoint, for progress displays. */
export interface EndpointStats {
  inFlight: number;
  queued: number;
  /** Current (possibly cut) concurrency limit. */
  limit: number;
  /** Configured cap the limit recovers to. */
  cap: number;
  /** Whether the endpoint waits out a `Retry-After`. */
  paused: boolean;
  retries: number;
  rateLimited: number;
}

/** Counters of a {@link CallScheduler}, for progress displays. */
export interface SchedulerStats {
  inFlight: number;
  queued: number;
  globalLimit: number;
  /** Retries made through `runWithRetries`. */
  retries: number;
  /** Calls that failed with `RateLimitError` (HTTP 429). */
  rateLimited: number;
  endpoints: Record<string, EndpointStats>;
}

/** Options of one {@link CallScheduler.run}. */
export interface RunOptions {
  /** Aborts the call; a call still queued never starts and rejects with `LlmAbortedError`. */
  signal?: AbortSignal;
}

/** Options of {@link CallScheduler.runWithRetries}: those of `withRetries`, with `sleep` defaulting to the scheduler's. */
export type RunWithRetriesOptions = Omit<WithRetriesOptions, "model">;

interface EndpointState {
  cap: number;
  limit: number;
  inFlight: number;
  queued: number;
  successStreak: number;
  paused: boolean;
  pauseEnd: number;
  pauseGeneration: number;
  retries: number;
  rateLimited: number;
}

interface Entry {
  key: string;
  signal: AbortSignal | undefined;
  start: () => void;
  onAbort: (() => void) | undefined;
}

/**
 * The one place LLM calls go through: a global concurrency limit plus a limit per endpoint key (a base URL or
 * model identity chosen by the caller), served first-in first-out. A queued call whose endpoint is full or paused
 * does not block calls to other endpoints queued behind it; calls to the same endpoint start in arrival order.
 *
 * Adaptive on 429: a call failing with {@link RateLimitError} halves its endpoint's limit (minimum 1) and pauses
 * the endpoint until `Retry-After` has elapsed; each `recoverAfterSuccesses` consecutive successes raise the limit
 * by 1 back towards its cap.
 */
export class CallScheduler {
  readonly globalLimit: number;
  private readonly endpointLimits: Readonly<Record<string, number>>;
  private readonly defaultEndpointLimit: number;
  private readonly recoverAfterSuccesses: number;
  private readonly defaultPauseMs: number;
  private readonly sleep: Sleep;
  private readonly now: () => number;
  private readonly shared: SharedCallLimits | null;
  private readonly endpoints = new Map<string, EndpointState>();
  private readonly queue: Entry[] = [];
  private inFlight = 0;
  private retries = 0;
  private rateLimited = 0;

  constructor(options: CallSchedulerOptions = {}) {
    this.globalLimit = checkLimit("globalLimit", options.globalLimit ?? 16);
    this.defaultEndpointLimit = checkLimit(
      "defaultEndpointLimit",
      options.defaultEndpointLimit ?? this.globalLimit,
    );
    this.endpointLimits = { ...(options.endpointLimits ?? {}) };
    for (const [key, limit] of Object.entries(this.endpointLimits))
      checkLimit(`endpointLimits[${key}]`, limit);
    this.recoverAfterSuccesses = checkLimit("recoverAfterSuccesses", options.recoverAfterSuccesses ?? 10);
    this.defaultPauseMs = Math.max(0, options.defaultRateLimitPauseSeconds ?? 0) * 1000;
    this.sleep = options.sleep ?? realSleep;
    this.now = options.now ?? Date.now;
    this.shared = options.shared ?? null;
  }

  /**
   * Runs `call` once a global permit and a permit of `endpointKey` are free, and returns its result. `call`
   * receives the caller's signal. Rejects with `LlmAbortedError` if the signal aborts while the call is queued.
   */
  run<T>(
    endpointKey: string,
    call: (signal?: AbortSignal) => Promise<T>,
    options: RunOptions = {},
  ): Promise<T> {
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(new LlmAbortedError(endpointKey, signal.reason));
    const endpoint = this.endpoint(endpointKey);
    return new Promise<T>((resolve, reject) => {
      const entry: Entry = {
        key: endpointKey,
        signal,
        onAbort: undefined,
        start: () => {
          this.inFlight++;
          endpoint.inFlight++;
          const shared = this.shared;
          (async () =>
            shared === null ? call(signal) : shared.hold(endpointKey, () => call(signal), signal))().then(
            (value) => {
              this.settle(endpoint, null);
              resolve(value);
            },
            (error: unknown) => {
              this.settle(endpoint, error);
              reject(error);
            },
          );
        },
      };
      if (signal) {
        entry.onAbort = () => {
          const index = this.queue.indexOf(entry);
          if (index < 0) return;
          this.queue.splice(index, 1);
          endpoint.queued--;
          reject(new LlmAbortedError(endpointKey, signal.reason));
          this.pump();
        };
        signal.addEventListener("abort", entry.onAbort, { once: true });
      }
      this.queue.push(entry);
      endpoint.queued++;
      this.pump();
    });
  }

  /**
   * `withRetries` around {@link CallScheduler.run}: each attempt takes its own permits, so backoff never holds
   * one, and each retry is counted in the scheduler's stats.
   */
  runWithRetries<T>(
    endpointKey: string,
    call: (signal?: AbortSignal) => Promise<T>,
    options: RunWithRetriesOptions,
  ): Promise<T> {
    const endpoint = this.endpoint(endpointKey);
    const { signal, onRetry } = options;
    return withRetries(() => this.run(endpointKey, call, { signal }), {
      ...options,
      model: endpointKey,
      sleep: options.sleep ?? this.sleep,
      onRetry: (event) => {
        this.retries++;
        endpoint.retries++;
        onRetry?.(event);
      },
    });
  }

  /** A snapshot of the counters, overall and per endpoint. */
  stats(): SchedulerStats {
    const endpoints: Record<string, EndpointStats> = {};
    for (const [key, e] of this.endpoints) {
      endpoints[key] = {
        inFlight: e.inFlight,
        queued: e.queued,
        limit: e.limit,
        cap: e.cap,
        paused: e.paused,
        retries: e.retries,
        rateLimited: e.rateLimited,
      };
    }
    return {
      inFlight: this.inFlight,
      queued: this.queue.length,
      globalLimit: this.globalLimit,
      retries: this.retries,
      rateLimited: this.rateLimited,
      endpoints,
    };
  }

  private endpoint(key: string): EndpointState {
    let state = this.endpoints.get(key);
    if (!state) {
      const cap = this.endpointLimits[key] ?? this.defaultEndpointLimit;
      state = {
        cap,
        limit: cap,
        inFlight: 0,
        queued: 0,
        successStreak: 0,
        paused: false,
        pauseEnd: 0,
        pauseGeneration: 0,
        retries: 0,
        rateLimited: 0,
      };
      this.endpoints.set(key, state);
    }
    return state;
  }

  private settle(endpoint: EndpointState, error: unknown): void {
    this.inFlight--;
    endpoint.inFlight--;
    if (error === null) {
      if (endpoint.limit < endpoint.cap && ++endpoint.successStreak >= this.recoverAfterSuccesses) {
        endpoint.limit++;
        endpoint.successStreak = 0;
      }
    } else if (error instanceof RateLimitError) {
      this.rateLimited++;
      endpoint.rateLimited++;
      endpoint.successStreak = 0;
      endpoint.limit = Math.max(1, Math.floor(endpoint.limit / 2));
      const pauseMs = error.retryAfterSeconds !== null ? error.retryAfterSeconds * 1000 : this.defaultPauseMs;
      if (pauseMs > 0) this.pause(endpoint, pauseMs);
    }
    this.pump();
  }

  private pause(endpoint: EndpointState, ms: number): void {
    const end = this.now() + ms;
    if (endpoint.paused && end <= endpoint.pauseEnd) return;
    const generation = ++endpoint.pauseGeneration;
    endpoint.paused = true;
    endpoint.pauseEnd = end;
    void this.sleep(ms).then(() => {
      if (endpoint.pauseGeneration !== generation) return;
      endpoint.paused = false;
      this.pump();
    });
  }

  private pump(): void {
    for (let i = 0; i < this.queue.length && this.inFlight < this.globalLimit; ) {
      const entry = this.queue[i] as Entry;
      const endpoint = this.endpoint(entry.key);
      if (endpoint.paused || endpoint.inFlight >= endpoint.limit) {
        i++;
        continue;
      }
      this.queue.splice(i, 1);
      endpoint.queued--;
      if (entry.signal && entry.onAbort) entry.signal.removeEventListener("abort", entry.onAbort);
      entry.start();
    }
  }
}

function checkLimit(setting: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) throw new SchedulerConfigError(setting, value);
  return value;
}
