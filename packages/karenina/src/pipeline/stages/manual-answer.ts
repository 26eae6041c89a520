import { ManualTraces, questionHash } from "../../llm/index.js";
import type { SharedAnswer } from "../answer-share.js";
import type { ModelConfig } from "../config/index.js";
import type { VerificationContext } from "../context.js";

const registries = new WeakMap<object, ManualTraces>();

function tracesOf(model: ModelConfig): ManualTraces | null {
  const value = model.manual_traces;
  if (value === null) return null;
  let traces = registries.get(value);
  if (traces === undefined) {
    traces = ManualTraces.from(value);
    registries.set(value, traces);
  }
  return traces;
}

/**
 * The pre-recorded answer of a `manual` answering model (spec 05 §5.6, §8.1): the trace registered for the
 * MD5 of the question text. Null, with the task's error set, when the question has none.
 */
export function manualAnswer(ctx: VerificationContext): SharedAnswer | null {
  const { question, answering } = ctx.task;
  const traces = tracesOf(answering);
  const hash = questionHash(question.text);
  const record = traces?.get(hash);
  if (record === undefined) {
    ctx.markError(
      `No manual trace for question ${question.id} (MD5 of its text: ${hash}; ${traces?.size ?? 0} traces loaded)`,
    );
    return null;
  }
  return {
    rawLlmResponse: record.trace,
    traceMessages: record.messages === null ? null : [...record.messages],
    conversationContext: [],
    recursionLimitReached: false,
    responseTimeoutPartial: false,
    usage: null,
    usageUnavailable: true,
    agentMetrics: record.agentMetrics ?? { iterations: 1, limit_reached: false },
    answeringMcpServers: null,
  };
}
