import type { UsageMetadata } from "../llm/index.js";
import { costOf, DEFAULT_PRICES, type PriceTable } from "./pricing.js";

/** Run-wide counters for progress displays and the run summary. */
/** Counters of the calls made so far. */
export interface RunStatsSnapshot {
  /** LLM calls sent over the wire. */
  calls: number;
  /** Calls answered from recordings (`recording.mode: "replay"`), not sent. */
  replayedCalls: number;
  cacheHits: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  unpricedCalls: number;
}

export class RunStats {
  /** LLM calls sent over the wire (each retry counts). */
  calls = 0;
  /** Calls answered from recordings (replay mode): none of them went over the wire. */
  replayedCalls = 0;
  cacheHits = 0;
  inputTokens = 0;
  outputTokens = 0;
  /** Summed cost of calls whose model has a price. */
  costUsd = 0;
  /** Calls whose model has no price, so the cost is a lower bound when this is above 0. */
  unpricedCalls = 0;

  constructor(private readonly prices: Readonly<PriceTable> = DEFAULT_PRICES) {}

  /** The counters now, as a plain object. */
  snapshot(): RunStatsSnapshot {
    const { calls, replayedCalls, cacheHits, inputTokens, outputTokens, costUsd, unpricedCalls } = this;
    return { calls, replayedCalls, cacheHits, inputTokens, outputTokens, costUsd, unpricedCalls };
  }

  addUsage(usage: UsageMetadata): void {
    this.inputTokens += usage.input_tokens;
    this.outputTokens += usage.output_tokens;
    const cost = costOf(usage, this.prices);
    if (cost === null) {
      if (usage.total_tokens > 0) this.unpricedCalls++;
    } else this.costUsd += cost;
  }
}
