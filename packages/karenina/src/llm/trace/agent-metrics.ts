import type { Message } from "../messages.js";

/** What an agent run did, computed from its messages (spec 04 §11.3). Keys are snake_case: stored in results. */
export interface AgentTraceMetrics {
  /** Assistant messages. */
  iterations: number;
  /** The larger of the number of tool calls and of tool results. */
  tool_calls: number;
  /** Names of the tools called, sorted, each once. */
  tools_used: string[];
  tool_call_counts: Record<string, number>;
  /** Tool results flagged as errors or whose content looks like a failure (see {@link looksLikeToolFailure}). */
  suspect_failed_tool_calls: number;
  /** Names of the tools behind those results (via the call id), sorted, each once. */
  suspect_failed_tools: string[];
  limit_reached: boolean;
}

/** Words that make a tool result suspect, matched as whole words, case-insensitively. */
const FAILURE_PATTERNS: readonly RegExp[] = [
  "error",
  "failed",
  "exception",
  "traceback",
  "stack\\s+trace",
  "404",
  "500",
  "502",
  "503",
  "timeout",
  "invalid",
  "unauthorized",
  "forbidden",
  "not\\s+found",
  "cannot",
  "unable\\s+to",
].map((word) => new RegExp(`\\b${word}\\b`, "i"));

/**
 * Whether a tool result's text reads like a failure: it contains one of error, failed, exception, traceback,
 * stack trace, 404, 500, 502, 503, timeout, invalid, unauthorized, forbidden, not found, cannot, unable to.
 * @example
 * looksLikeToolFailure("HTTP 404: page Not Found"); // true
 * looksLikeToolFailure("3 errors were corrected in 2023"); // false
 */
export function looksLikeToolFailure(content: string): boolean {
  return FAILURE_PATTERNS.some((pattern) => pattern.test(content));
}

const sortedUnique = (names: Iterable<string>) => [...new Set(names)].sort();

/**
 * An agent run's metrics from its messages (spec 04 §11.3); `limitReached` is the agent's own report. A suspect
 * result whose call id matches no tool call counts as suspect but names no tool.
 * @example
 * const metrics = agentMetrics([assistantMessage("", [{ id: "1", name: "search", input: {} }]), toolResultMessage("1", "Traceback (most recent call last)"), assistantMessage("Done.")], false);
 * [metrics.iterations, metrics.tool_calls, metrics.suspect_failed_tools]; // [2, 1, ["search"]]
 */
export function agentMetrics(messages: readonly Message[], limitReached: boolean): AgentTraceMetrics {
  const toolNames = new Map<string, string>();
  const counts: Record<string, number> = {};
  let iterations = 0;
  let calls = 0;
  let results = 0;
  let suspect = 0;
  const suspectTools: string[] = [];
  for (const message of messages) {
    if (message.role === "assistant") iterations++;
    for (const block of message.content) {
      if (block.type === "tool_use") {
        calls++;
        toolNames.set(block.id, block.name);
        counts[block.name] = (counts[block.name] ?? 0) + 1;
      } else if (block.type === "tool_result") {
        results++;
        if (block.is_error || looksLikeToolFailure(block.content)) {
          suspect++;
          const name = toolNames.get(block.tool_use_id);
          if (name !== undefined) suspectTools.push(name);
        }
      }
    }
  }
  return {
    iterations,
    tool_calls: Math.max(calls, results),
    tools_used: sortedUnique(Object.keys(counts)),
    tool_call_counts: counts,
    suspect_failed_tool_calls: suspect,
    suspect_failed_tools: sortedUnique(suspectTools),
    limit_reached: limitReached,
  };
}
