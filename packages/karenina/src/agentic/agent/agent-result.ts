import {
  type AgentResult,
  agentMetrics,
  isUsageEmpty,
  messageText,
  renderRawTrace,
  type TraceMessage,
  type UsageMetadata,
} from "../../llm/index.js";

/** How a run ended, besides its trace. */
export interface RunOutcome {
  usage: UsageMetadata;
  turns: number;
  limitReached: boolean;
  timeoutReached: boolean;
  sessionId?: string;
  actualModel?: string;
}

/**
 * The result of an agent run from its trace: the final response (text of the last message when it is the
 * assistant's, else ""), the raw trace text and the trace metrics.
 */
export function agentResult(trace: TraceMessage[], outcome: RunOutcome): AgentResult {
  const last = trace.at(-1);
  return {
    finalResponse: last?.role === "assistant" ? messageText(last) : "",
    rawTrace: renderRawTrace(trace),
    traceMessages: trace,
    usage: outcome.usage,
    usageUnavailable: isUsageEmpty(outcome.usage),
    turns: outcome.turns,
    limitReached: outcome.limitReached,
    timeoutReached: outcome.timeoutReached,
    metrics: agentMetrics(trace, outcome.limitReached),
    ...(outcome.sessionId === undefined ? {} : { sessionId: outcome.sessionId }),
    ...(outcome.actualModel === undefined ? {} : { actualModel: outcome.actualModel }),
  };
}
