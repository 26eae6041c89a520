import {
  type DynamicRubric,
  isTemplateKind,
  type LlmTrait,
  type Rubric,
  rubricFromTraits,
  rubricTraits,
} from "../../model/index.js";
import {
  batchLiteralRequests,
  batchScoreRequests,
  effectiveDeepJudgment,
  metricTraitRequest,
  type RubricExcerpt,
  type RubricJudgeRequest,
  type RubricPromptContext,
  resolveTraitDeepJudgment,
  sequentialLiteralRequest,
  sequentialScoreRequest,
  TraitEvaluationError,
  templateFields,
  templateTraitRequest,
} from "../../rubrics/index.js";
import {
  classifyDynamicTraits,
  presenceCheckPrompt,
  promptMessages,
  traitConcept,
} from "../prompts/index.js";
import {
  excerptExtractionRequest,
  excerptSearch,
  hallucinationRequest,
  reasoningRequest,
  rubricDeepJudgmentSettings,
  scoreExtractionRequest,
} from "../rubric-evaluation/index.js";
import {
  ASSUMED_EXCERPTS,
  type CallPlanner,
  EXCERPT_MARKER,
  type JudgeRequestText,
  type PlannedCall,
  REASONING_MARKER,
  SEARCH_MARKER,
} from "./planned-call.js";

/** What the rubric stage of one task judges. */
export interface RubricJudging {
  questionId: string;
  /** Null in TaskEval mode (no question block). */
  question: string | null;
  referenceAnswer: string | null;
  /** The answer as rubric evaluation sees it; may hold placeholders. */
  response: string;
  rubric: Rubric | null;
  dynamicRubric: DynamicRubric | null;
}

const asJudgeRequest = (request: RubricJudgeRequest): JudgeRequestText => ({
  task: request.call,
  system: request.system,
  user: request.user,
  schema: request.schema,
  example: request.example,
});

/** The requests `build` gives, or none when the traits are invalid (the run then records a trait error). */
function requests(build: () => RubricJudgeRequest[]): RubricJudgeRequest[] {
  try {
    return build();
  } catch (error) {
    if (error instanceof TraitEvaluationError) return [];
    throw error;
  }
}

/** Template-kind traits one call each; boolean/score and literal traits in batch calls or one call each. */
function standardCalls(
  planner: CallPlanner,
  traits: readonly LlmTrait[],
  context: RubricPromptContext,
): PlannedCall[] {
  const batch = planner.config.rubric_evaluation_strategy === "batch";
  const call = (request: RubricJudgeRequest, items: number) =>
    planner.judgeCall("rubric", "rubric", asJudgeRequest(request), items);
  const grouped = (
    group: readonly LlmTrait[],
    together: (traits: readonly LlmTrait[], context: RubricPromptContext) => RubricJudgeRequest[],
    alone: (trait: LlmTrait, context: RubricPromptContext) => RubricJudgeRequest,
  ) =>
    (group.length === 0
      ? []
      : batch
        ? requests(() => together(group, context))
        : group.flatMap((trait) => requests(() => [alone(trait, context)]))
    ).map((request) => call(request, request.traitNames.length));
  const templateKinds = traits.flatMap((trait) => {
    const kind = trait.kind;
    if (!isTemplateKind(kind)) return [];
    return requests(() => [templateTraitRequest(trait, context)]).map((request) =>
      call(request, templateFields(kind).length),
    );
  });
  const scalar = traits.filter((trait) => trait.kind === "boolean" || trait.kind === "score");
  const literal = traits.filter((trait) => trait.kind === "literal");
  return [
    ...templateKinds,
    ...grouped(scalar, batchScoreRequests, sequentialScoreRequest),
    ...grouped(literal, batchLiteralRequests, sequentialLiteralRequest),
  ];
}

/**
 * Deep judgment of one trait (spec 04 §9.2): excerpts (when enabled, {@link ASSUMED_EXCERPTS} of them, each
 * assessed for hallucination when the trait searches and a search function is set), reasoning, then the score.
 */
function deepTraitCalls(
  planner: CallPlanner,
  trait: LlmTrait,
  judging: RubricJudging,
  searchAvailable: boolean,
): PlannedCall[] {
  const { config } = planner;
  const settings = effectiveDeepJudgment(trait, {
    maxExcerpts: config.deep_judgment_max_excerpts_per_attribute,
    fuzzyMatchThreshold: config.deep_judgment_fuzzy_match_threshold,
    excerptRetryAttempts: config.deep_judgment_excerpt_retry_attempts,
  });
  const calls: PlannedCall[] = [];
  let evidence: { excerpts: RubricExcerpt[] } | { response: string } = { response: judging.response };
  if (settings.excerptEnabled) {
    const count = Math.max(1, Math.min(ASSUMED_EXCERPTS, settings.maxExcerpts));
    const request = excerptExtractionRequest(trait, settings.maxExcerpts, judging.response, null);
    calls.push(planner.judgeCall("deep_judgment", "deep_judgment_excerpts", request, count));
    const excerpts: RubricExcerpt[] = Array.from({ length: count }, () => ({
      text: EXCERPT_MARKER,
      confidence: "high",
      similarity_score: 1,
    }));
    if (settings.searchEnabled && searchAvailable) {
      for (const excerpt of excerpts) {
        const searched = { ...excerpt, search_results: SEARCH_MARKER };
        calls.push(
          planner.judgeCall(
            "deep_judgment",
            "deep_judgment_hallucination",
            hallucinationRequest(trait, searched),
            1,
          ),
        );
        excerpt.hallucination_risk = "medium";
      }
    }
    evidence = { excerpts };
  }
  calls.push(
    planner.judgeCall(
      "deep_judgment",
      "deep_judgment_reasoning",
      reasoningRequest(trait, judging.question, evidence),
      1,
    ),
    planner.judgeCall(
      "deep_judgment",
      "deep_judgment_score",
      scoreExtractionRequest(trait, REASONING_MARKER),
      0,
      { [REASONING_MARKER]: planner.output("deep_judgment_reasoning", 1) },
    ),
  );
  return calls;
}

/**
 * The dynamic rubric's presence check (one call), and the rubric it yields when every concept is found present.
 */
function resolveDynamic(
  planner: CallPlanner,
  judging: RubricJudging,
): { calls: PlannedCall[]; rubric: Rubric | null } {
  const traits = rubricTraits(judging.dynamicRubric).filter((trait) => trait.type !== "agentic");
  if (traits.length === 0) return { calls: [], rubric: judging.rubric };
  const prompt = presenceCheckPrompt({
    ...planner.settings,
    concepts: traits.map(traitConcept),
    response: judging.response,
  });
  const call = planner.call("rubric", "rubric", promptMessages(prompt), traits.length);
  const names = traits.map((trait) => trait.name);
  const allPresent = Object.fromEntries(names.map((name) => [name, true]));
  const { promoted } = classifyDynamicTraits(names, allPresent, planner.config.rubric_trait_names);
  const added = traits.filter((trait) => promoted.includes(trait.name));
  const rubric =
    added.length === 0 ? judging.rubric : rubricFromTraits([...rubricTraits(judging.rubric), ...added]);
  return { calls: [call], rubric };
}

/**
 * RubricEvaluation (spec 04 §5.11, §12): the presence check of a dynamic rubric, the standard LLM-trait calls
 * (batch or sequential, template kinds one each), deep judgment of the traits the run resolves to it, and one
 * call per metric trait. Regex and callable traits run locally; agentic traits belong to another stage.
 */
export function rubricCalls(planner: CallPlanner, judging: RubricJudging): PlannedCall[] {
  const { config } = planner;
  const dynamic = resolveDynamic(planner, judging);
  const rubric = dynamic.rubric;
  if (rubric === null) return dynamic.calls;
  const context: RubricPromptContext = {
    question: judging.question,
    response: judging.response,
    referenceAnswer: judging.referenceAnswer,
  };
  const settings = rubricDeepJudgmentSettings(config);
  const resolved = rubric.llm_traits.map((trait) =>
    resolveTraitDeepJudgment(trait, judging.questionId, settings),
  );
  const standard = rubric.llm_traits.filter((_, i) => !resolved[i]?.deep_judgment_enabled);
  // A dry run reads the environment a real run would (TAVILY_API_KEY) to tell whether search would happen.
  const search = excerptSearch(
    config.deep_judgment_rubric_search_tool,
    config.deep_judgment_search_tool,
    process.env,
  );
  return [
    ...dynamic.calls,
    ...standardCalls(planner, standard, context),
    ...resolved
      .filter((trait) => trait.deep_judgment_enabled)
      .flatMap((trait) => deepTraitCalls(planner, trait, judging, search.available)),
    ...rubric.metric_traits.map((trait) =>
      planner.judgeCall(
        "rubric",
        "rubric_metric",
        asJudgeRequest(metricTraitRequest(trait, context)),
        trait.tp_instructions.length + trait.tn_instructions.length,
      ),
    ),
  ];
}
