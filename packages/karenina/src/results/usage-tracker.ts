import type { UsageMetadata } from "../llm/index.js";
import type { StageUsage } from "./verification-result.js";

/** The usage of one call as an adapter reports it, with the provider's token breakdowns when it gives them. */
export interface RecordedUsage extends UsageMetadata {
  readonly input_token_details?: Readonly<Record<string, number>>;
  readonly output_token_details?: Readonly<Record<string, number>>;
}

/** The three token counts summed over every stage: the `total` entry of `usage_metadata`. */
export type UsageTotal = { input_tokens: number; output_tokens: number; total_tokens: number };

/** `usage_metadata` of a result: one entry per stage that made calls, then `total`. */
export type UsageSummary = Record<string, StageUsage>;

interface StageTotals {
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  model: string | null;
  input_token_details: { audio: number; cache_read: number; [key: string]: number };
  output_token_details: { audio: number; reasoning: number; [key: string]: number };
  cost_usd: number;
}

function addInto(target: Record<string, number>, source: Readonly<Record<string, number>>): void {
  for (const [key, value] of Object.entries(source)) target[key] = (target[key] ?? 0) + value;
}

/**
 * Collects the token usage of a task's LLM calls per pipeline stage (spec 05 §2): `answer_generation`,
 * `parsing`, `abstention_check`, ... Each stage sums its calls' tokens and token details; its `model` is its
 * first call's. Costs are kept too ({@link UsageTracker.costUsd}) although results do not store them.
 * @example
 * const usage = new UsageTracker();
 * usage.record("parsing", { input_tokens: 10, output_tokens: 2, total_tokens: 12, model: "gpt-4o", cost_usd: 0.25 });
 * usage.record("parsing", { input_tokens: 5, output_tokens: 1, total_tokens: 6, cache_read_tokens: 4 });
 * usage.summary().parsing;
 * // { input_tokens: 15, output_tokens: 3, total_tokens: 18, model: "gpt-4o", input_token_details: { audio: 0, cache_read: 4 }, output_token_details: { audio: 0, reasoning: 0 } }
 * usage.summary().total; // { input_tokens: 15, output_tokens: 3, total_tokens: 18 }
 * usage.costUsd(); // 0.25
 */
export class UsageTracker {
  readonly #stages = new Map<string, StageTotals>();

  /**
   * Adds one call's usage to a stage. `model` names the model when the usage does not; the stage keeps its
   * first call's model. Token details are summed key by key, from `{audio: 0, cache_read: 0}` in and
   * `{audio: 0, reasoning: 0}` out; a call without input details counts its `cache_read_tokens` as `cache_read`.
   */
  record(stage: string, usage: RecordedUsage, model?: string): void {
    let totals = this.#stages.get(stage);
    if (totals === undefined) {
      totals = {
        input_tokens: 0,
        output_tokens: 0,
        total_tokens: 0,
        model: usage.model ?? model ?? null,
        input_token_details: { audio: 0, cache_read: 0 },
        output_token_details: { audio: 0, reasoning: 0 },
        cost_usd: 0,
      };
      this.#stages.set(stage, totals);
    }
    totals.input_tokens += usage.input_tokens;
    totals.output_tokens += usage.output_tokens;
    totals.total_tokens += usage.total_tokens;
    totals.cost_usd += usage.cost_usd ?? 0;
    addInto(
      totals.input_token_details,
      usage.input_token_details ?? { cache_read: usage.cache_read_tokens ?? 0 },
    );
    addInto(totals.output_token_details, usage.output_token_details ?? {});
  }

  /** The stages that made calls, in the order of their first call. */
  get stages(): string[] {
    return [...this.#stages.keys()];
  }

  /** Whether no call was recorded. */
  get isEmpty(): boolean {
    return this.#stages.size === 0;
  }

  /** The summed usage of a stage (without cost), or null when it made no call. */
  stage(name: string): StageUsage | null {
    const totals = this.#stages.get(name);
    if (totals === undefined) return null;
    return {
      input_tokens: totals.input_tokens,
      output_tokens: totals.output_tokens,
      total_tokens: totals.total_tokens,
      model: totals.model,
      input_token_details: { ...totals.input_token_details },
      output_token_details: { ...totals.output_token_details },
    };
  }

  /** The tokens of every stage together. */
  total(): UsageTotal {
    const total: UsageTotal = { input_tokens: 0, output_tokens: 0, total_tokens: 0 };
    for (const totals of this.#stages.values()) {
      total.input_tokens += totals.input_tokens;
      total.output_tokens += totals.output_tokens;
      total.total_tokens += totals.total_tokens;
    }
    return total;
  }

  /** The result's `usage_metadata`: each stage's usage, then `total`. Costs are not included. */
  summary(): UsageSummary {
    const summary: UsageSummary = {};
    for (const name of this.#stages.keys()) {
      const usage = this.stage(name);
      if (usage !== null) summary[name] = usage;
    }
    summary.total = this.total();
    return summary;
  }

  /** The summed `cost_usd` of one stage's calls, or of every call; 0 when no call reported a cost. */
  costUsd(stage?: string): number {
    if (stage !== undefined) return this.#stages.get(stage)?.cost_usd ?? 0;
    let cost = 0;
    for (const totals of this.#stages.values()) cost += totals.cost_usd;
    return cost;
  }
}
