import { canonicalJson } from "../../llm/index.js";
import type { AnswerTemplate } from "../../templates/index.js";
import {
  abstentionPrompt,
  type DeepJudgmentPromptBase,
  deepJudgmentAttributes,
  equivalencePrompt,
  excerptExtractionPrompt,
  hallucinationPrompt,
  parametersPrompt,
  parsingPrompt,
  parsingSystemText,
  promptMessages,
  reasoningOnlyPrompt,
  reasoningPrompt,
  sufficiencyPrompt,
  type TemplateExcerpt,
} from "../prompts/index.js";
import { resolveSearchTool } from "../web-search/index.js";
import {
  ASSUMED_EXCERPTS,
  type CallPlanner,
  EXCERPT_MARKER,
  type PlannedCall,
  REASONING_MARKER,
  SEARCH_MARKER,
} from "./planned-call.js";

/** What the template stages of one task judge: the question, and the answer as those stages see it. */
export interface TemplateJudging {
  question: string;
  /** The answer as the template stages receive it (final AI message or full trace); may hold placeholders. */
  response: string;
}

/** The abstention check (spec 04 §8.1): one call. */
export function abstentionCall(planner: CallPlanner, judging: TemplateJudging): PlannedCall {
  const prompt = abstentionPrompt({ ...planner.settings, ...judging });
  return planner.call("abstention", "abstention", promptMessages(prompt));
}

const fieldCount = (template: AnswerTemplate) => deepJudgmentAttributes(template.judgeSchema).length;

/** The sufficiency check (spec 04 §8.2): one call, with the judge schema. */
export function sufficiencyCall(
  planner: CallPlanner,
  judging: TemplateJudging,
  template: AnswerTemplate,
): PlannedCall {
  const prompt = sufficiencyPrompt({ ...planner.settings, ...judging, schema: template.judgeSchema });
  return planner.call("sufficiency", "sufficiency", promptMessages(prompt), fieldCount(template));
}

function parsingSettings(planner: CallPlanner, template: AnswerTemplate) {
  return {
    ...planner.settings,
    judgeSchema: template.judgeSchema,
    extractionHints: template.extractionHints,
    includeExtractionHints: planner.config.include_extraction_hints,
  };
}

/** The final parse of deep judgment, from one reasoning text per attribute. */
function parametersCall(planner: CallPlanner, base: DeepJudgmentPromptBase, reasoningTokens: number) {
  const attributes = deepJudgmentAttributes(base.judgeSchema);
  const reasoning = Object.fromEntries(attributes.map((attribute) => [attribute.name, REASONING_MARKER]));
  const prompt = parametersPrompt({ baseSystem: base.baseSystem, question: base.question, reasoning });
  const perAttribute = Math.round(reasoningTokens / Math.max(1, attributes.length));
  return planner.call("parsing", "parsing", promptMessages(prompt), attributes.length, {
    [REASONING_MARKER]: perAttribute,
  });
}

/** The excerpts full deep judgment is assumed to find: {@link ASSUMED_EXCERPTS} per attribute, at most the maximum. */
function assumedExcerpts(
  attributes: readonly string[],
  maxPerAttribute: number,
  searched: boolean,
): Record<string, TemplateExcerpt[]> {
  const count = Math.max(1, Math.min(ASSUMED_EXCERPTS, maxPerAttribute));
  const excerpt = (): TemplateExcerpt => ({
    text: EXCERPT_MARKER,
    confidence: "high",
    similarity_score: 1,
    ...(searched ? { search_results: SEARCH_MARKER } : {}),
  });
  return Object.fromEntries(attributes.map((name) => [name, Array.from({ length: count }, excerpt)]));
}

/** Template deep judgment (spec 04 §9.1): its calls in `reasoning_only` or `full` mode. */
function deepJudgmentCalls(
  planner: CallPlanner,
  judging: TemplateJudging,
  template: AnswerTemplate,
): PlannedCall[] {
  const { config } = planner;
  const base: DeepJudgmentPromptBase = {
    ...planner.settings,
    baseSystem: parsingSystemText(parsingSettings(planner, template)),
    judgeSchema: template.judgeSchema,
    question: judging.question,
  };
  const attributes = deepJudgmentAttributes(template.judgeSchema).map((attribute) => attribute.name);
  const reasoningTokens = planner.output("deep_judgment_reasoning", attributes.length);
  const reasoningCall = (prompt: Parameters<typeof promptMessages>[0]) =>
    planner.call("deep_judgment", "deep_judgment_reasoning", promptMessages(prompt), attributes.length);
  if (config.deep_judgment_mode === "reasoning_only") {
    return [
      reasoningCall(reasoningOnlyPrompt({ ...base, response: judging.response })),
      parametersCall(planner, base, reasoningTokens),
    ];
  }
  const maxExcerpts = config.deep_judgment_max_excerpts_per_attribute;
  // A dry run reads the environment a real run would (TAVILY_API_KEY) to tell whether search would happen.
  const searched =
    config.deep_judgment_search_enabled &&
    resolveSearchTool(config.deep_judgment_search_tool, process.env).available;
  const excerpts = assumedExcerpts(attributes, maxExcerpts, searched);
  const excerptCount = Object.values(excerpts).flat().length;
  const calls = [
    planner.call(
      "deep_judgment",
      "deep_judgment_excerpts",
      promptMessages(
        excerptExtractionPrompt({
          ...base,
          response: judging.response,
          maxExcerptsPerAttribute: maxExcerpts,
        }),
      ),
      excerptCount,
    ),
  ];
  const hallucination = searched ? hallucinationPrompt({ ...planner.settings, excerpts }) : null;
  if (hallucination !== null) {
    calls.push(
      planner.call(
        "deep_judgment",
        "deep_judgment_hallucination",
        promptMessages(hallucination.prompt),
        excerptCount,
      ),
    );
    for (const excerpt of Object.values(excerpts).flat()) excerpt.hallucination_risk = "medium";
  }
  calls.push(
    reasoningCall(reasoningPrompt({ ...base, excerpts, searchEnabled: hallucination !== null })),
    parametersCall(planner, base, reasoningTokens),
  );
  return calls;
}

/**
 * ParseTemplate (spec 04 §5.7): no call for a template without judge fields; one parse; or the deep-judgment
 * calls with their final parse.
 */
export function parseCalls(
  planner: CallPlanner,
  judging: TemplateJudging,
  template: AnswerTemplate,
): PlannedCall[] {
  if (template.needsNoJudge) return [];
  if (planner.config.deep_judgment_mode !== "disabled") return deepJudgmentCalls(planner, judging, template);
  const prompt = parsingPrompt({ ...parsingSettings(planner, template), ...judging });
  return [planner.call("parsing", "parsing", promptMessages(prompt), fieldCount(template))];
}

/**
 * The embedding check (spec 04 §10) as if the field check failed and the similarity reached the threshold: one
 * embedding request of the ground truth and the parsed answer (assumed as long as the ground truth), then the
 * equivalence call. None when the template has no judge fields or no ground truth (the run makes no call then).
 */
export function embeddingCalls(
  planner: CallPlanner,
  question: string,
  template: AnswerTemplate,
): PlannedCall[] {
  const groundTruth = template.groundTruth ?? {};
  if (template.needsNoJudge || Object.keys(groundTruth).length === 0) return [];
  const json = canonicalJson(groundTruth);
  const prompt = equivalencePrompt({ question, groundTruth, parsed: groundTruth });
  return [
    planner.embedding([json, json]),
    planner.call("embedding", "embedding_equivalence", promptMessages(prompt)),
  ];
}
