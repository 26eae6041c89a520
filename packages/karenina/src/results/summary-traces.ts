import { entryOf, mean, median, populationStd, ratio } from "./statistics.js";
import type { ToolUsageStats, TraceLengthStats } from "./summary-types.js";
import type { VerificationResult } from "./verification-result.js";

/**
 * The generated answer a row judged: parser siblings share one (spec 06 §1.8 `traceIdentity`), so agent
 * metrics are counted once per trace, not once per parsing model.
 */
function traceKey(result: VerificationResult, answeringCanonical: string): string {
  const { metadata } = result;
  return JSON.stringify([
    metadata.run_name,
    metadata.question_id,
    answeringCanonical,
    metadata.replicate,
    metadata.scenario_id,
    metadata.scenario_node,
    metadata.scenario_turn,
  ]);
}

/**
 * Tool usage and trace lengths, row by row: the first agent metrics of each trace count. Keeps the keys of
 * the traces seen (to skip parser siblings), the iteration counts and per-tool sums.
 */
export class TraceStats {
  private readonly seen = new Set<string>();
  private readonly tools = new Map<string, { total_calls: number; traces_using: number }>();
  private readonly iterations: number[] = [];
  private tracesWithTools = 0;
  private totalCalls = 0;
  private minIterations = Number.POSITIVE_INFINITY;
  private maxIterations = Number.NEGATIVE_INFINITY;

  /** Counts the row's agent metrics unless its trace was counted; `answeringCanonical` is `canonicalKey` of its answering model. */
  add(result: VerificationResult, answeringCanonical: string): void {
    const metrics = result.template?.agent_metrics;
    if (metrics === null || metrics === undefined) return;
    const key = traceKey(result, answeringCanonical);
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.iterations.push(metrics.iterations);
    this.minIterations = Math.min(this.minIterations, metrics.iterations);
    this.maxIterations = Math.max(this.maxIterations, metrics.iterations);
    const counts = metrics.tool_call_counts ?? {};
    const calls = metrics.tool_calls ?? Object.values(counts).reduce((a, b) => a + b, 0);
    this.totalCalls += calls;
    if (calls > 0) this.tracesWithTools++;
    for (const tool of Object.keys(counts)) {
      const count = counts[tool] as number;
      let entry = this.tools.get(tool);
      if (entry === undefined) {
        entry = { total_calls: 0, traces_using: 0 };
        this.tools.set(tool, entry);
      }
      entry.total_calls += count;
      if (count > 0) entry.traces_using++;
    }
  }

  finish(): { tool_usage_stats: ToolUsageStats | null; trace_length_stats: TraceLengthStats | null } {
    const tools: ToolUsageStats["tools"] = {};
    for (const [tool, { total_calls, traces_using }] of this.tools) {
      const entry = entryOf(tools, tool, () => ({ total_calls, traces_using, avg_calls_per_trace: 0 }));
      entry.avg_calls_per_trace = ratio(total_calls, traces_using);
    }
    const iterations = this.iterations;
    return {
      tool_usage_stats:
        this.tracesWithTools === 0
          ? null
          : { tools, total_traces_with_tools: this.tracesWithTools, total_tool_calls: this.totalCalls },
      trace_length_stats:
        iterations.length === 0
          ? null
          : {
              median_iterations: median(iterations),
              mean_iterations: mean(iterations),
              std_iterations: populationStd(iterations),
              min_iterations: this.minIterations,
              max_iterations: this.maxIterations,
              num_traces: iterations.length,
            },
    };
  }
}
