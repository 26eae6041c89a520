import { LlmAbortedError, prepareEvaluationInput } from "../../llm/index.js";
import { describeException } from "../classify-error.js";
import type { VerificationContext } from "../context.js";
import {
  type AbstentionOutcome,
  abstentionPrompt,
  abstentionReplySchema,
  promptMessages,
  readAbstentionReply,
} from "../prompts/index.js";
import type { Stage } from "../stage.js";

const NOT_PERFORMED: AbstentionOutcome = { performed: false, detected: false, reasoning: null };

/**
 * Asks the parsing model, at temperature 0, whether the answer abstains (spec 04 §8.1). The judge sees the
 * question and the answer (final AI message or full trace, per `use_full_trace_for_template`) — never the
 * template or its ground truth. An answer whose final message cannot be extracted, and a judge that fails
 * after its retries, give a check that was not performed (with a warning).
 */
async function detectAbstention(ctx: VerificationContext): Promise<AbstentionOutcome> {
  const { artifacts, config, task } = ctx;
  const input = prepareEvaluationInput(
    artifacts.traceMessages ?? artifacts.rawLlmResponse ?? "",
    config.use_full_trace_for_template,
  );
  if (input.error !== null) {
    ctx.warn(`Abstention check not performed: ${input.error}`);
    return NOT_PERFORMED;
  }
  const model = { ...task.parsing, temperature: 0 };
  try {
    const prompt = abstentionPrompt({
      question: task.question.text,
      response: input.text,
      interface: model.interface,
      promptConfig: config.prompt_config,
    });
    const supportsSystem = ctx.services.ports.parser(model).capabilities.supportsSystemPrompt;
    const result = await ctx.calls.parse({
      stage: "abstention_check",
      model,
      messages: promptMessages(prompt, supportsSystem),
      schema: abstentionReplySchema,
    });
    return readAbstentionReply(result.parsed);
  } catch (error) {
    if (error instanceof LlmAbortedError || ctx.aborted) throw error;
    ctx.warn(`Abstention check failed: ${describeException(error)}`);
    return NOT_PERFORMED;
  }
}

/**
 * Stage 5 (spec 04 §5.6, §8.1): detects an answer that declines to answer. A detected abstention fails the
 * verdict (`verify_result = false`, `failed_stage = AbstentionCheck`) and makes the template stages skip; the
 * failure is classified `abstention`. Not an error, and never fatal: a check that could not be made is
 * recorded as not performed. Writes `abstention_check_performed`, `abstention_detected`,
 * `abstention_override_applied` and `abstention_reasoning`.
 */
export const abstentionCheckStage: Stage = {
  name: "AbstentionCheck",
  needs: ["rawLlmResponse", "traceMessages"],
  gives: ["abstentionDetected", "verifyResult"],
  shouldRun: (ctx) =>
    ctx.error === null &&
    ctx.artifacts.recursionLimitReached !== true &&
    ctx.artifacts.responseTimeoutPartial !== true &&
    ctx.artifacts.rawLlmResponse !== undefined,
  async run(ctx) {
    const outcome = await detectAbstention(ctx);
    const override = outcome.performed && outcome.detected;
    ctx.artifacts.abstentionDetected = outcome.detected;
    Object.assign(ctx.draft.template, {
      abstention_check_performed: outcome.performed,
      abstention_detected: outcome.detected,
      abstention_override_applied: override,
      abstention_reasoning: outcome.reasoning,
    });
    if (override) {
      ctx.artifacts.verifyResult = false;
      ctx.draft.template.verify_result = false;
      ctx.failAt("AbstentionCheck");
    }
  },
};
