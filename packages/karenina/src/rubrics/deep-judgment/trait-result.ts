import type { RubricExcerpt, TraitHallucinationRisk } from "./excerpts.js";

export const DEEP_JUDGMENT_STAGES = [
  "excerpt_extraction",
  "hallucination_assessment",
  "reasoning_generation",
  "score_extraction",
] as const;
export type DeepJudgmentStage = (typeof DEEP_JUDGMENT_STAGES)[number];

/** Per-trait deep-judgment metadata (spec 03 §10.3), as stored in `trait_metadata`. */
export type TraitDeepJudgmentMetadata =
  | {
      stages_completed: DeepJudgmentStage[];
      model_calls: number;
      had_excerpts: boolean;
      excerpt_retry_count: number;
      excerpt_validation_failed: boolean;
    }
  /** An unexpected exception: the trait is treated as auto-failed. */
  | { stages_completed: []; model_calls: 0; error: string };

/** What evaluating one trait with deep judgment produced. */
export interface DeepJudgmentTraitOutcome {
  readonly traitName: string;
  /** The score; null when the trait auto-failed (no valid excerpt after all attempts, or an exception). */
  readonly score: boolean | number | null;
  /** The validated excerpts; null for traits evaluated without excerpts. */
  readonly excerpts: RubricExcerpt[] | null;
  readonly reasoning: string | null;
  readonly metadata: TraitDeepJudgmentMetadata;
  /** With search: the trait's hallucination risk. */
  readonly hallucinationRisk: TraitHallucinationRisk | null;
}

/**
 * The outcome of a trait whose evaluation raised: auto-failed, with metadata
 * `{"stages_completed": [], "model_calls": 0, "error": "…"}`.
 * @example
 * failedDeepJudgmentTrait("clarity", "timeout").metadata; // { stages_completed: [], model_calls: 0, error: "timeout" }
 */
export function failedDeepJudgmentTrait(traitName: string, error: string): DeepJudgmentTraitOutcome {
  return {
    traitName,
    score: null,
    excerpts: null,
    reasoning: null,
    metadata: { stages_completed: [], model_calls: 0, error },
    hallucinationRisk: null,
  };
}

/** Whether a trait auto-failed: no valid excerpt after every attempt, or an exception. */
export function autoFailed(outcome: DeepJudgmentTraitOutcome): boolean {
  return "error" in outcome.metadata || outcome.metadata.excerpt_validation_failed;
}

/** The `deep_judgment_rubric` block of a result (spec 03 §10.5), snake_case as in the original. */
export interface DeepJudgmentRubricBlock {
  deep_judgment_rubric_performed: boolean;
  /** Trait → validated excerpts, for excerpt-enabled traits. */
  extracted_rubric_excerpts: Record<string, RubricExcerpt[]>;
  rubric_trait_reasoning: Record<string, string>;
  /** Scores of the deep-judgment traits (auto-failed traits have none). */
  deep_judgment_rubric_scores: Record<string, boolean | number>;
  /** Scores of the other LLM traits, evaluated the standard way. */
  standard_rubric_scores: Record<string, unknown>;
  trait_metadata: Record<string, TraitDeepJudgmentMetadata>;
  traits_without_valid_excerpts: string[];
  /** Only present when some trait was assessed (search enabled). */
  rubric_hallucination_risk_assessment: Record<string, TraitHallucinationRisk> | null;
  total_deep_judgment_model_calls: number;
  total_traits_evaluated: number;
  total_excerpt_retries: number;
}

/**
 * Assembles the `deep_judgment_rubric` block from each deep-judgment trait's outcome and the scores of the
 * LLM traits evaluated the standard way.
 * @example
 * const outcome = failedDeepJudgmentTrait("clarity", "timeout");
 * const block = buildDeepJudgmentRubricBlock([outcome], { tone: 1 });
 * block.traits_without_valid_excerpts; // ["clarity"]
 * block.standard_rubric_scores; // { tone: 1 }
 */
export function buildDeepJudgmentRubricBlock(
  outcomes: readonly DeepJudgmentTraitOutcome[],
  standardScores: Record<string, unknown>,
): DeepJudgmentRubricBlock {
  const block: DeepJudgmentRubricBlock = {
    deep_judgment_rubric_performed: true,
    extracted_rubric_excerpts: {},
    rubric_trait_reasoning: {},
    deep_judgment_rubric_scores: {},
    standard_rubric_scores: { ...standardScores },
    trait_metadata: {},
    traits_without_valid_excerpts: [],
    rubric_hallucination_risk_assessment: null,
    total_deep_judgment_model_calls: 0,
    total_traits_evaluated: outcomes.length,
    total_excerpt_retries: 0,
  };
  const risks: Record<string, TraitHallucinationRisk> = {};
  for (const outcome of outcomes) {
    const name = outcome.traitName;
    block.trait_metadata[name] = outcome.metadata;
    if (outcome.excerpts !== null) block.extracted_rubric_excerpts[name] = outcome.excerpts;
    if (outcome.reasoning !== null) block.rubric_trait_reasoning[name] = outcome.reasoning;
    if (outcome.score !== null) block.deep_judgment_rubric_scores[name] = outcome.score;
    if (autoFailed(outcome)) block.traits_without_valid_excerpts.push(name);
    if (outcome.hallucinationRisk !== null) risks[name] = outcome.hallucinationRisk;
    block.total_deep_judgment_model_calls += outcome.metadata.model_calls;
    if (!("error" in outcome.metadata)) block.total_excerpt_retries += outcome.metadata.excerpt_retry_count;
  }
  if (Object.keys(risks).length > 0) block.rubric_hallucination_risk_assessment = risks;
  return block;
}
