import type { HallucinationRisk } from "../../rubrics/index.js";
import type { AnswerTemplate } from "../../templates/index.js";
import type { VerificationContext } from "../context.js";
import {
  attributeHallucinationRisk,
  type DeepJudgmentPromptBase,
  deepJudgmentAttributes,
  parametersPrompt,
  parsingSystemText,
  readReasoningReply,
  reasoningOnlyPrompt,
  reasoningPrompt,
  type TemplateExcerpt,
} from "../prompts/index.js";
import { parseTemplateAnswer } from "../stages/template-parse-call.js";
import { askJudge } from "./calls.js";
import { extractExcerpts } from "./excerpts.js";
import { assessHallucination, searchExcerpts, templateSearchFunction } from "./search.js";

/** The stages a template deep judgment can complete (`deep_judgment_stages_completed`). */
export type TemplateDeepJudgmentStage =
  | "excerpts"
  | "excerpt_hallucination_assessment"
  | "reasoning"
  | "parameters";

/** What one template deep judgment produced. */
interface DeepJudgmentOutcome {
  parsed: Record<string, unknown>;
  excerpts: Record<string, TemplateExcerpt[]>;
  reasoning: Record<string, string>;
  stages: TemplateDeepJudgmentStage[];
  modelCalls: number;
  excerptRetries: number;
  attributesWithoutExcerpts: string[];
  searched: boolean;
  hallucinationRisk: Record<string, HallucinationRisk> | null;
}

/** The base of every deep-judgment prompt: the parsing system text with its additions and instructions. */
function promptBase(ctx: VerificationContext, template: AnswerTemplate): DeepJudgmentPromptBase {
  const { config, task } = ctx;
  const settings = { interface: task.parsing.interface, promptConfig: config.prompt_config };
  return {
    ...settings,
    baseSystem: parsingSystemText({
      ...settings,
      judgeSchema: template.judgeSchema,
      extractionHints: template.extractionHints,
      includeExtractionHints: config.include_extraction_hints,
    }),
    judgeSchema: template.judgeSchema,
    question: task.question.text,
  };
}

/** Reasoning-only deep judgment (spec 04 §9.1): reasoning per attribute from the response, then the parse. */
async function reasoningOnly(
  ctx: VerificationContext,
  template: AnswerTemplate,
  base: DeepJudgmentPromptBase,
  response: string,
): Promise<DeepJudgmentOutcome> {
  const reply = await askJudge(ctx, reasoningOnlyPrompt({ ...base, response }), "deep_judgment_reasoning");
  const reasoning = readReasoningReply(reply.content);
  const parsed = await parseTemplateAnswer(
    ctx,
    template,
    parametersPrompt({ baseSystem: base.baseSystem, question: base.question, reasoning }),
  );
  return {
    parsed,
    excerpts: {},
    reasoning,
    stages: ["reasoning", "parameters"],
    modelCalls: 2,
    excerptRetries: 0,
    attributesWithoutExcerpts: [],
    searched: false,
    hallucinationRisk: null,
  };
}

/**
 * Full deep judgment (spec 04 §9.1): verbatim excerpts per attribute (validated against the response, with
 * retries), optional search and hallucination assessment, reasoning from the excerpts (the response itself is
 * not shown again), then the parse from the reasoning.
 */
async function full(
  ctx: VerificationContext,
  template: AnswerTemplate,
  base: DeepJudgmentPromptBase,
  response: string,
): Promise<DeepJudgmentOutcome> {
  const attributes = deepJudgmentAttributes(template.judgeSchema).map((attribute) => attribute.name);
  const extraction = await extractExcerpts(ctx, base, attributes, response);
  const { excerpts } = extraction.check;
  const stages: TemplateDeepJudgmentStage[] = ["excerpts"];
  let modelCalls = extraction.calls;
  const search = templateSearchFunction(ctx);
  const searched = search !== null && (await searchExcerpts(ctx, search, excerpts));
  if (searched) {
    const assessment = await assessHallucination(ctx, excerpts);
    if (assessment.called) modelCalls++;
    if (assessment.assessed) stages.push("excerpt_hallucination_assessment");
  }
  const reply = await askJudge(
    ctx,
    reasoningPrompt({ ...base, excerpts, searchEnabled: searched }),
    "deep_judgment_reasoning",
  );
  modelCalls++;
  const reasoning = readReasoningReply(reply.content);
  stages.push("reasoning");
  const parsed = await parseTemplateAnswer(
    ctx,
    template,
    parametersPrompt({ baseSystem: base.baseSystem, question: base.question, reasoning }),
  );
  modelCalls++;
  stages.push("parameters");
  return {
    parsed,
    excerpts,
    reasoning,
    stages,
    modelCalls,
    excerptRetries: extraction.calls - 1,
    attributesWithoutExcerpts: extraction.check.attributesWithoutExcerpts,
    searched,
    hallucinationRisk: searched
      ? Object.fromEntries(
          attributes.map((attribute) => [attribute, attributeHallucinationRisk(excerpts[attribute] ?? [])]),
        )
      : null,
  };
}

/**
 * Template deep judgment (spec 04 §9.1), the parse of stage 7a when `deep_judgment_mode` is not `disabled`.
 * Every call goes to the task's parsing model and sees the question, the response (or what was drawn from
 * it) and the judge schema — never the ground truth.
 * - `reasoning_only`: 2 calls — reasoning per attribute from the response, then the parse from the reasoning.
 * - `full`: verbatim excerpts per attribute, fuzzy-matched against the response and asked again while some
 *   are not found (`deep_judgment_excerpt_retry_attempts`); with `deep_judgment_search_enabled` and a search
 *   function, each excerpt is searched and the search results are judged for hallucination risk; then
 *   reasoning from the excerpts, then the parse from the reasoning. An attribute left without excerpts makes
 *   DeepJudgmentAutoFail fail the verdict.
 *
 * Writes the deep-judgment result fields (`ctx.draft.deepJudgment`) and the artifacts `deepJudgmentPerformed`,
 * `deepJudgmentReasoningOnly` and `attributesWithoutExcerpts`; usage goes under `deep_judgment_excerpts`,
 * `deep_judgment_hallucination_assessment`, `deep_judgment_reasoning` and `parsing`. Search and
 * hallucination-assessment failures only leave warnings.
 * @returns the parsed answer (field name → value).
 * @throws {ParseError} when the excerpt reply or the final parse yields no valid object.
 * @throws {LlmCallError} when a call fails after its retries (other than search or hallucination assessment).
 */
export async function templateDeepJudgment(
  ctx: VerificationContext,
  template: AnswerTemplate,
  response: string,
): Promise<Record<string, unknown>> {
  const reasoningOnlyMode = ctx.config.deep_judgment_mode === "reasoning_only";
  ctx.artifacts.deepJudgmentPerformed = false;
  ctx.artifacts.deepJudgmentReasoningOnly = reasoningOnlyMode;
  ctx.artifacts.attributesWithoutExcerpts = [];
  ctx.draft.deepJudgment = { deep_judgment_performed: false };
  const base = promptBase(ctx, template);
  const outcome = reasoningOnlyMode
    ? await reasoningOnly(ctx, template, base, response)
    : await full(ctx, template, base, response);
  ctx.artifacts.deepJudgmentPerformed = true;
  ctx.artifacts.attributesWithoutExcerpts = outcome.attributesWithoutExcerpts;
  ctx.draft.deepJudgment = {
    deep_judgment_performed: true,
    extracted_excerpts: outcome.excerpts,
    attribute_reasoning: outcome.reasoning,
    deep_judgment_stages_completed: outcome.stages,
    deep_judgment_model_calls: outcome.modelCalls,
    deep_judgment_excerpt_retry_count: outcome.excerptRetries,
    attributes_without_excerpts: outcome.attributesWithoutExcerpts,
    deep_judgment_search_enabled: outcome.searched,
    hallucination_risk_assessment: outcome.hallucinationRisk,
  };
  return outcome.parsed;
}
