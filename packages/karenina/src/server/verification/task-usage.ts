import { DEFAULT_PRICES } from "../../pipeline/index.js";
import { type PriceLookup, summarizeResults, type VerificationResult } from "../../results/index.js";
import type { JobUsageTotals, TaskUsage } from "../jobs/index.js";

/** The built-in list prices, as `summarizeResults` looks them up (the server has no price file). */
const listPrices: PriceLookup = (model) => DEFAULT_PRICES[model];

/** What a `task_completed` event says of its task's usage. */
export interface TaskUsageFields {
  /** The result's tokens summed over its stages; null when it recorded no usage. */
  readonly usage: TaskUsage | null;
  /** Its cost in USD; null when a stage's model has no known price. */
  readonly cost_usd: number | null;
}

/**
 * A result's tokens and cost, counted by the library's summary (its `tokens` and `cost` sections over this one
 * row), so the live figures are the same as the run summary's.
 */
export function taskUsage(result: VerificationResult, prices: PriceLookup = listPrices): TaskUsageFields {
  const { tokens, cost } = summarizeResults([result], { prices });
  if (tokens.num_results_with_usage === 0) return { usage: null, cost_usd: 0 };
  const usage = {
    input_tokens: tokens.total_input,
    output_tokens: tokens.total_output,
    total_tokens: tokens.total_tokens,
  };
  const unpriced = cost === null || cost.unpriced_models.length > 0;
  return { usage, cost_usd: unpriced ? null : cost.total_usd };
}

/** A job's running totals of its tasks' usage (see {@link JobUsageTotals}). */
export class UsageTotals {
  readonly #totals: JobUsageTotals = {
    input_tokens: 0,
    output_tokens: 0,
    total_tokens: 0,
    cost_usd: 0,
    priced: 0,
    unpriced: 0,
  };

  /** Counts a finished task's usage. */
  add(fields: TaskUsageFields): void {
    const totals = this.#totals;
    if (fields.usage !== null) {
      totals.input_tokens += fields.usage.input_tokens;
      totals.output_tokens += fields.usage.output_tokens;
      totals.total_tokens += fields.usage.total_tokens;
    }
    if (fields.cost_usd === null) totals.unpriced++;
    else {
      totals.cost_usd += fields.cost_usd;
      totals.priced++;
    }
  }

  /** The totals so far (a copy). */
  get value(): JobUsageTotals {
    return { ...this.#totals };
  }
}
