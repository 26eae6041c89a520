import { LlmAbortedError, prepareEvaluationInput } from "../../llm/index.js";
import type { AnswerTemplate } from "../../templates/index.js";
import { describeException } from "../classify-error.js";
import type { VerificationContext } from "../context.js";
import {
  promptMessages,
  readSufficiencyReply,
  type SufficiencyOutcome,
  sufficiencyPrompt,
  sufficiencyReplySchema,
} from "../prompts/index.js";
import type { Stage } from "../stage.js";

/** A check that could not be made defaults to sufficient (spec 04 §8.2). */
const NOT_PERFORMED: SufficiencyOutcome = { performed: false, sufficient: true, reasoning: null };

/**
 * Asks the parsing model, at temperature 0, whether the answer holds a candidate value for every required
 * field (spec 04 §8.2). The judge sees the question, the answer and the template's judge schema — ground
 * truth stripped. An answer whose final message cannot be extracted, and a judge that fails after its
 * retries, give a check that was not performed (with a warning).
 */
async function detectSufficiency(
  ctx: VerificationContext,
  template: AnswerTemplate,
): Promise<SufficiencyOutcome> {
  const { artifacts, config, task } = ctx;
  const input = prepareEvaluationInput(
    artifacts.traceMessages ?? artifacts.rawLlmResponse ?? "",
    config.use_full_trace_for_template,
  );
  if (input.error !== null) {
    ctx.warn(`Sufficiency check not performed: ${input.error}`);
    return NOT_PERFORMED;
  }
  const model = { ...task.parsing, temperature: 0 };
  try {
    const prompt = sufficiencyPrompt({
      question: task.question.text,
      response: input.text,
      schema: template.judgeSchema,
      interface: model.interface,
      promptConfig: config.prompt_config,
    });
    const supportsSystem = ctx.services.ports.parser(model).capabilities.supportsSystemPrompt;
    const result = await ctx.calls.parse({
      stage: "sufficiency_check",
      model,
      messages: promptMessages(prompt, supportsSystem),
      schema: sufficiencyReplySchema,
    });
    return readSufficiencyReply(result.parsed);
  } catch (error) {
    if (error instanceof LlmAbortedError || ctx.aborted) throw error;
    ctx.warn(`Sufficiency check failed: ${describeException(error)}`);
    return NOT_PERFORMED;
  }
}

/**
 * Stage 6 (spec 04 §5.6, §8.2): detects an answer too thin to fill the template. An insufficient answer fails
 * the verdict (`verify_result = false`, `failed_stage = SufficiencyCheck`) and makes parsing skip; the failure
 * is classified `sufficiency` (the spec's recommended fix: the original labels the *sufficient* answers).
 * Never fatal: a check that could not be made is recorded as not performed and counts as sufficient. Writes
 * `sufficiency_check_performed`, `sufficiency_detected` (true = sufficient, the original's naming),
 * `sufficiency_override_applied` and `sufficiency_reasoning`.
 */
export const sufficiencyCheckStage: Stage = {
  name: "SufficiencyCheck",
  needs: ["template", "rawLlmResponse", "traceMessages"],
  gives: ["sufficiencyDetected", "verifyResult"],
  shouldRun: (ctx) =>
    ctx.error === null &&
    ctx.artifacts.recursionLimitReached !== true &&
    ctx.artifacts.responseTimeoutPartial !== true &&
    ctx.artifacts.traceValidationFailed !== true &&
    ctx.artifacts.abstentionDetected !== true &&
    ctx.artifacts.template !== undefined &&
    ctx.artifacts.rawLlmResponse !== undefined,
  async run(ctx) {
    const template = ctx.artifacts.template;
    if (template === undefined) return;
    const outcome = await detectSufficiency(ctx, template);
    const override = outcome.performed && !outcome.sufficient;
    ctx.artifacts.sufficiencyDetected = outcome.sufficient;
    Object.assign(ctx.draft.template, {
      sufficiency_check_performed: outcome.performed,
      sufficiency_detected: outcome.sufficient,
      sufficiency_override_applied: override,
      sufficiency_reasoning: outcome.reasoning,
    });
    if (override) {
      ctx.artifacts.verifyResult = false;
      ctx.draft.template.verify_result = false;
      ctx.failAt("SufficiencyCheck");
    }
  },
};
