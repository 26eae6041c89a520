import { entryOf, mapEntryOf, mean, median, populationStd, ratio } from "./statistics.js";
import type { ToolUsageStats, TraceLengthStats } from "./summary-types.js";
import type { VerificationResult } from "./verification-result.js";

/**
 * The generated answers already counted: parser siblings share one (spec 06 §1.8 `traceIdentity`: run,
 * question, answering model, replicate and scenario position), so agent metrics are counted once per trace,
 * not once per parsing model. A row without a scenario position (nearly all) is looked up by its parts in
 * nested maps, with no key string built per row; the others by the JSON of their parts. An absent part and
 * null are the same part, as in the JSON.
 */
class SeenTraces {
  /** By answering model, run name and question: the replicates seen. */
  private readonly plain = new Map<string, Map<string | null, Map<string, Set<number | null>>>>();
  private readonly positioned = new Set<string>();

  /** Records the row's trace; false when it was recorded before. */
  add(result: VerificationResult, answeringCanonical: string): boolean {
    const { metadata } = result;
    const { run_name, question_id, replicate, scenario_id, scenario_node, scenario_turn } = metadata;
    if (
      (scenario_id !== null && scenario_id !== undefined) ||
      (scenario_node !== null && scenario_node !== undefined) ||
      (scenario_turn !== null && scenario_turn !== undefined) ||
      !(replicate === null || replicate === undefined || Number.isInteger(replicate))
    ) {
      const key = JSON.stringify([
        run_name,
        question_id,
        answeringCanonical,
        replicate,
        scenario_id,
        scenario_node,
        scenario_turn,
      ]);
      if (this.positioned.has(key)) return false;
      this.positioned.add(key);
      return true;
    }
    const byRun = mapEntryOf(this.plain, answeringCanonical, newMap);
    const byQuestion = mapEntryOf(byRun, run_name ?? null, newMap);
    const replicates = mapEntryOf(byQuestion, question_id, newSet);
    const number = replicate ?? null;
    if (replicates.has(number)) return false;
    replicates.add(number);
    return true;
  }
}

// biome-ignore lint/suspicious/noExplicitAny: a factory for maps of any types (the callers' maps are typed).
const newMap = (): Map<any, any> => new Map();
const newSet = <T>(): Set<T> => new Set<T>();

/**
 * Tool usage and trace lengths, row by row: the first agent metrics of each trace count. Keeps the keys of
 * the traces seen (to skip parser siblings), the iteration counts and per-tool sums.
 */
export class TraceStats {
  private readonly seen = new SeenTraces();
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
    if (!this.seen.add(result, answeringCanonical)) return;
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
