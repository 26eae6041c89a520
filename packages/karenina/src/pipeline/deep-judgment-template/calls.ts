import type { LlmResponse } from "../../llm/index.js";
import type { AnswerTemplate } from "../../templates/index.js";
import type { VerificationContext } from "../context.js";
import { type JudgePrompt, promptMessages } from "../prompts/index.js";
import { templateStructuredSchema } from "../stages/parse-template.js";

/** The usage buckets of template deep judgment (spec 05 §2); the final parse counts as `parsing`. */
export type DeepJudgmentUsageStage =
  | "deep_judgment_excerpts"
  | "deep_judgment_hallucination_assessment"
  | "deep_judgment_reasoning"
  | "parsing";

/**
 * A plain call to the parsing model (its LLM port): excerpts, hallucination assessment and reasoning. Goes
 * through the task's calls (scheduler, retries, cache) and records its usage under `stage`.
 * @throws the call's error after retries (`LlmCallError`, `LlmAbortedError`, ...).
 */
export function askJudge(
  ctx: VerificationContext,
  prompt: JudgePrompt,
  stage: Exclude<DeepJudgmentUsageStage, "parsing">,
): Promise<LlmResponse> {
  const model = ctx.task.parsing;
  const supportsSystem = ctx.services.ports.llm(model).capabilities.supportsSystemPrompt;
  return ctx.calls.invoke({ stage, model, messages: promptMessages(prompt, supportsSystem) });
}

/**
 * The final "parameters" call (spec 04 §9.1): the parsing model's parser port with the template's structured
 * schema, usage under `parsing`.
 * @throws {ParseError} when no valid object came back; the call's error after retries otherwise.
 */
export async function parseParameters(
  ctx: VerificationContext,
  template: AnswerTemplate,
  prompt: JudgePrompt,
): Promise<Record<string, unknown>> {
  const model = ctx.task.parsing;
  const supportsSystem = ctx.services.ports.parser(model).capabilities.supportsSystemPrompt;
  const result = await ctx.calls.parse({
    stage: "parsing",
    model,
    messages: promptMessages(prompt, supportsSystem),
    schema: templateStructuredSchema(template),
  });
  return result.parsed;
}
