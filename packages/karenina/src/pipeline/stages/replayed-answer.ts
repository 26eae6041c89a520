import { deserializeMessages, ReplayMissError } from "../../llm/index.js";
import { AgentMetricsSchema, displayString } from "../../results/index.js";
import type { SharedAnswer } from "../answer-share.js";
import { modelIdentity } from "../config/index.js";
import type { VerificationContext } from "../context.js";

function usageOf(captured: Record<string, unknown> | null): SharedAnswer["usage"] {
  const stage = captured?.answer_generation as Record<string, unknown> | undefined;
  if (stage === undefined) return null;
  const input = Number(stage.input_tokens ?? 0);
  const output = Number(stage.output_tokens ?? 0);
  return {
    input_tokens: input,
    output_tokens: output,
    total_tokens: Number(stage.total_tokens ?? input + output),
    ...(typeof stage.model === "string" ? { model: stage.model } : {}),
  };
}

/**
 * The answer of the replay store for this task (spec 04 §5.2 step 1): `"miss"` when there is no store or no
 * entry (fall-through), null when a strict store misses (the task's error is set), else the answer. A captured
 * verdict or parsed answer is handed to the later stages as artifacts.
 */
export function replayedAnswer(ctx: VerificationContext): SharedAnswer | null | "miss" {
  const store = ctx.services.replay;
  if (store === null) return "miss";
  const identity = modelIdentity(ctx.task.answering, "answering");
  let entry: ReturnType<typeof store.lookup>;
  try {
    const scenario = ctx.task.scenario;
    entry = store.lookup({
      question_id: ctx.task.question.id,
      answering_model_id: displayString(identity),
      replicate: ctx.task.replicate,
      // A scenario turn looks up its node and visit (spec 08 §5.6); the question id does not match there.
      ...(scenario
        ? { scenario_id: scenario.scenarioId, scenario_node: scenario.node, visit_index: scenario.visitIndex }
        : {}),
    });
  } catch (error) {
    if (!(error instanceof ReplayMissError)) throw error;
    ctx.markError(`Replay strict miss: ${error.message}`);
    return null;
  }
  if (entry === null) return "miss";
  let traceMessages: SharedAnswer["traceMessages"] = null;
  try {
    traceMessages = entry.trace_messages === null ? null : deserializeMessages(entry.trace_messages);
  } catch (error) {
    ctx.warn(`replayed trace messages could not be read (${(error as Error).message}); using the raw trace`);
  }
  if (entry.verify_result !== null) ctx.artifacts.replayedVerdict = entry.verify_result;
  if (entry.parsed_answer_fields !== null) ctx.artifacts.replayedParsedAnswer = entry.parsed_answer_fields;
  ctx.artifacts.answeringModelStr = `${displayString(identity)} (replay)`;
  const metrics = AgentMetricsSchema.safeParse(entry.agent_metrics);
  return {
    rawLlmResponse: entry.raw_trace,
    traceMessages,
    conversationContext: [],
    recursionLimitReached: metrics.success ? metrics.data.limit_reached : false,
    responseTimeoutPartial: false,
    usage: usageOf(entry.usage_metadata),
    usageUnavailable: entry.usage_metadata === null,
    agentMetrics: metrics.success ? metrics.data : { iterations: 1, limit_reached: false },
    answeringMcpServers: null,
  };
}
