import { AdapterUnavailableError, assistantMessage, LlmAbortedError } from "../../llm/index.js";
import { displayString } from "../../results/index.js";
import type { SharedAnswer } from "../answer-share.js";
import { classifyError, describeException } from "../classify-error.js";
import { modelIdentity } from "../config/index.js";
import type { VerificationContext } from "../context.js";
import { answeringMessages, promptForTask } from "../prompts/index.js";
import type { Stage } from "../stage.js";
import { manualAnswer } from "./manual-answer.js";
import { replayedAnswer } from "./replayed-answer.js";

const AI_HEADER = "--- AI Message ---\n";

/** Copies an answer (live, shared, cached or replayed) into the task's artifacts and result fields. */
export function applyAnswer(ctx: VerificationContext, answer: SharedAnswer, generated: boolean): void {
  const { artifacts, draft } = ctx;
  artifacts.rawLlmResponse = answer.rawLlmResponse;
  artifacts.traceMessages = answer.traceMessages;
  artifacts.conversationContext = answer.conversationContext;
  artifacts.recursionLimitReached = answer.recursionLimitReached;
  artifacts.responseTimeoutPartial = answer.responseTimeoutPartial;
  draft.template.raw_llm_response = answer.rawLlmResponse;
  draft.template.recursion_limit_reached = answer.recursionLimitReached;
  draft.template.response_timeout_partial = answer.responseTimeoutPartial;
  draft.template.answering_mcp_servers = answer.answeringMcpServers;
  draft.template.usage_unavailable = answer.usageUnavailable;
  draft.template.agent_metrics = answer.agentMetrics;
  if (answer.usage !== null && !generated) ctx.recordUsage("answer_generation", answer.usage, true);
}

/**
 * One live call to the answering model (spec 04 §5.2 step 8): the bare question (plus system prompt and
 * few-shot examples), nothing of the template or rubric. Returns null, with the task's error set, when the
 * call fails for good.
 */
async function generateLive(ctx: VerificationContext): Promise<SharedAnswer | null> {
  const { task, config } = ctx;
  const messages = answeringMessages({
    systemPrompt: task.answering.system_prompt,
    generationInstructions: promptForTask(config.prompt_config, "generation"),
    question: task.question.text,
    fewShotExamples: task.fewShotExamples,
  });
  try {
    const response = await ctx.calls.invoke({ stage: "answer_generation", model: task.answering, messages });
    const partial = response.isPartial;
    if (partial) {
      ctx.markError(
        `Response truncated by streaming timeout (${response.content.length} chars captured)`,
        "timeout",
      );
    }
    return {
      rawLlmResponse: AI_HEADER + response.content,
      traceMessages: [assistantMessage(response.content)],
      conversationContext: messages,
      recursionLimitReached: false,
      responseTimeoutPartial: partial,
      usage: response.usage,
      usageUnavailable: response.usageUnavailable,
      agentMetrics: { iterations: 1, limit_reached: false },
      answeringMcpServers: null,
    };
  } catch (error) {
    if (error instanceof LlmAbortedError || ctx.aborted) throw error;
    const prefix =
      error instanceof AdapterUnavailableError
        ? "Failed to initialize answering model"
        : "Adapter call failed";
    ctx.markError(
      `${prefix}: ${describeException(error)}`,
      classifyError(error, config.custom_error_patterns),
    );
    ctx.artifacts.conversationContext = messages;
    return null;
  }
}

/**
 * Stage 2 (spec 04 §5.2): the answer, from the first source that has one — the replay store, the task's
 * supplied answer (TaskEval), a `manual` model's registered trace, an answer another task of the same question, answering model and replicate
 * generated (one answer shared by every judge), or a live call.
 */
export const generateAnswerStage: Stage = {
  name: "GenerateAnswer",
  needs: [],
  gives: [
    "rawLlmResponse",
    "traceMessages",
    "conversationContext",
    "recursionLimitReached",
    "responseTimeoutPartial",
    "answeringModelStr",
  ],
  async run(ctx) {
    ctx.artifacts.answeringModelStr = displayString(modelIdentity(ctx.task.answering, "answering"));
    const replayed = replayedAnswer(ctx);
    if (replayed !== "miss") {
      if (replayed !== null) applyAnswer(ctx, replayed, false);
      return;
    }
    if (ctx.task.cachedAnswer) {
      applyAnswer(ctx, ctx.task.cachedAnswer, false);
      return;
    }
    if (ctx.task.answering.interface === "manual") {
      const manual = manualAnswer(ctx);
      if (manual !== null) applyAnswer(ctx, manual, false);
      return;
    }
    const { answer, generated } = await ctx.services.answers.getOrGenerate(
      ctx.task.answerKey,
      ctx.task.answerSharers,
      () => generateLive(ctx),
    );
    if (answer !== null) applyAnswer(ctx, answer, generated);
    else {
      ctx.artifacts.rawLlmResponse = "";
      ctx.artifacts.recursionLimitReached = false;
      ctx.draft.template.raw_llm_response = "";
    }
  },
};
