import type { LlmResponse } from "../../llm/index.js";
import type { VerificationContext } from "../context.js";
import { type JudgePrompt, promptMessages } from "../prompts/index.js";

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
