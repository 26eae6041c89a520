import { RetryPolicySchema } from "../llm/index.js";
import { RETRY_CATEGORIES, type RetryCategory, type RetryCounts } from "./verification-result.js";

/** The part of a `RetryPolicy` the tracker reads: each retryable category's budget. */
export type RetryBudgets = Partial<Record<RetryCategory, { readonly max_attempts: number }>>;

const DEFAULT_POLICY = RetryPolicySchema.parse({});

/**
 * A task's retries per category (spec 04 §4, 06 §1.1): every retryable category starts at `used: 0` with
 * the answering model's `max_attempts` as budget (the default policy's for a category the policy lacks).
 * Adapters record each retry; the result stores a snapshot as `retry_counts`.
 * @example
 * const retries = new RetryTracker({ timeout: { max_attempts: 1 } });
 * retries.record("timeout");
 * retries.exhausted("timeout"); // true
 * retries.snapshot().timeout; // { used: 1, budget: 1 }
 * retries.snapshot().rate_limit; // { used: 0, budget: 5 }
 */
export class RetryTracker {
  readonly #counts: RetryCounts;

  /** `policy`: the answering model's retry policy; null or absent = the default policy. */
  constructor(policy?: RetryBudgets | null) {
    const usage = (category: RetryCategory) => ({
      used: 0,
      budget: policy?.[category]?.max_attempts ?? DEFAULT_POLICY[category].max_attempts,
    });
    this.#counts = {
      connection: usage("connection"),
      timeout: usage("timeout"),
      rate_limit: usage("rate_limit"),
      server_error: usage("server_error"),
    };
  }

  /** Counts one retry of a category. */
  record(category: RetryCategory): void {
    this.#counts[category].used += 1;
  }

  /** Whether a category has used its whole budget. */
  exhausted(category: RetryCategory): boolean {
    const { used, budget } = this.#counts[category];
    return used >= budget;
  }

  /** Whether any retry was made (the `retries_used` caveat). */
  get anyUsed(): boolean {
    return RETRY_CATEGORIES.some((category) => this.#counts[category].used > 0);
  }

  /** A copy of the counts, keys in {@link RETRY_CATEGORIES} order. */
  snapshot(): RetryCounts {
    return {
      connection: { ...this.#counts.connection },
      timeout: { ...this.#counts.timeout },
      rate_limit: { ...this.#counts.rate_limit },
      server_error: { ...this.#counts.server_error },
    };
  }
}
