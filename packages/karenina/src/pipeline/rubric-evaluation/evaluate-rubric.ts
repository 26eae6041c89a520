import type { LlmTrait, Rubric } from "../../model/index.js";
import {
  buildDeepJudgmentRubricBlock,
  type CallableEvaluationOptions,
  type DeepJudgmentFallbacks,
  type DeepJudgmentRubricBlock,
  type DeepJudgmentTraitOutcome,
  effectiveDeepJudgment,
  evaluateLocalTraits,
  type RubricDeepJudgmentSettings,
  type RubricPromptContext,
  resolveTraitDeepJudgment,
} from "../../rubrics/index.js";
import { evaluateTraitWithDeepJudgment } from "./deep-judgment.js";
import type { RubricJudge } from "./judge.js";
import type { ExcerptSearch } from "./search.js";
import {
  evaluateLlmTraits,
  evaluateMetricTraits,
  type MetricTraitResults,
  type RubricStrategy,
} from "./standard.js";

/** What one rubric evaluation is about. */
export interface RubricEvaluationRequest {
  /** The rubric to evaluate (dynamic traits already promoted into it); agentic traits are left alone. */
  readonly rubric: Rubric;
  /** The rubric evaluation text (spec 03 §9.2): every trait kind sees it. */
  readonly text: string;
  /** The question shown to LLM judges; null in TaskEval mode (no question block). */
  readonly question: string | null;
  /** The question's reference answer, shown only to traits with `include_ground_truth`. */
  readonly referenceAnswer: string | null;
  readonly questionId: string;
  readonly strategy: RubricStrategy;
  /** How the run turns deep judgment on per LLM trait, and the values that fill a trait's unset settings. */
  readonly deepJudgment: { settings: RubricDeepJudgmentSettings; fallbacks: DeepJudgmentFallbacks };
  /** Where callable traits run. */
  readonly callables: CallableEvaluationOptions;
}

/** The services an evaluation calls. */
export interface RubricEvaluationServices {
  readonly judge: RubricJudge;
  readonly search: ExcerptSearch;
  readonly warn: (message: string) => void;
}

/** What a rubric evaluation produced. */
export interface RubricEvaluation {
  /**
   * The flat name → value map (`verify_rubric`): regex, callable and LLM traits (template kinds as
   * `trait.field`); null for a trait that could not be evaluated.
   */
  verifyRubric: Record<string, unknown>;
  /** Literal traits judged the standard way: trait name → class label. */
  labels: Record<string, string>;
  metrics: MetricTraitResults;
  /** The `deep_judgment_rubric` block; null when no trait went through deep judgment. */
  deepJudgment: DeepJudgmentRubricBlock | null;
  /** Trait name → why it has no value (or an error marker): for the task's warnings. */
  traitErrors: Record<string, string>;
}

/**
 * Evaluates a rubric (spec 04 §5.11 steps 4–5, spec 03 §9–10): regex and callable traits locally; LLM traits
 * the run resolves to deep judgment one at a time through the deep-judgment path, the other LLM traits the
 * standard way (batch or sequential); then metric traits. Regex and callable traits are evaluated on the
 * deep-judgment path too (the spec's recommended fix of quirk R4).
 * @throws the error of a failed batch call (the whole evaluation fails, quirk R3) or of a cancelled run.
 */
export async function evaluateRubric(
  services: RubricEvaluationServices,
  request: RubricEvaluationRequest,
): Promise<RubricEvaluation> {
  const { judge } = services;
  const { rubric, text, deepJudgment } = request;
  const context: RubricPromptContext = {
    question: request.question,
    response: text,
    referenceAnswer: request.referenceAnswer,
  };
  const traitErrors: Record<string, string> = {};
  const report = (name: string, message: string) => {
    traitErrors[name] = message;
  };

  const local = await evaluateLocalTraits(rubric, text, request.callables);
  Object.assign(traitErrors, local.errors);

  const resolved = rubric.llm_traits.map((trait) =>
    resolveTraitDeepJudgment(trait, request.questionId, deepJudgment.settings),
  );
  const deepTraits = resolved.filter((trait) => trait.deep_judgment_enabled);
  const standardTraits = rubric.llm_traits.filter((_, i) => !resolved[i]?.deep_judgment_enabled);

  const standard = await evaluateLlmTraits(judge, standardTraits, context, request.strategy, report);
  const outcomes = await evaluateDeepTraits(services, request, deepTraits);
  const metrics = await evaluateMetricTraits(judge, rubric.metric_traits, context, report);

  const deepScores = Object.fromEntries(outcomes.map((outcome) => [outcome.traitName, outcome.score]));
  for (const outcome of outcomes) {
    const metadata = outcome.metadata;
    if ("error" in metadata) report(outcome.traitName, metadata.error);
    else if (metadata.excerpt_validation_failed) {
      report(outcome.traitName, "no valid excerpt was found after every extraction attempt");
    }
  }
  return {
    verifyRubric: { ...local.scores, ...standard.scores, ...deepScores },
    labels: standard.labels,
    metrics,
    deepJudgment: outcomes.length === 0 ? null : buildDeepJudgmentRubricBlock(outcomes, standard.scores),
    traitErrors,
  };
}

/** The deep-judgment traits, one at a time (never batched, spec 04 §9.2). */
async function evaluateDeepTraits(
  services: RubricEvaluationServices,
  request: RubricEvaluationRequest,
  traits: readonly LlmTrait[],
): Promise<DeepJudgmentTraitOutcome[]> {
  const settings = traits.map((trait) => effectiveDeepJudgment(trait, request.deepJudgment.fallbacks));
  const { search } = services;
  const searching = traits.filter((_, i) => settings[i]?.excerptEnabled && settings[i]?.searchEnabled);
  if (!search.available && searching.length > 0) {
    const names = searching.map((trait) => `"${trait.name}"`).join(", ");
    services.warn(`Deep judgment search skipped for trait(s) ${names}: ${search.reason}`);
  }
  const outcomes: DeepJudgmentTraitOutcome[] = [];
  for (const [i, trait] of traits.entries()) {
    outcomes.push(
      await evaluateTraitWithDeepJudgment(services, {
        trait,
        settings: settings[i] as ReturnType<typeof effectiveDeepJudgment>,
        response: request.text,
        question: request.question,
      }),
    );
  }
  return outcomes;
}
