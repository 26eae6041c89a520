import type { RubricTrait } from "../model/rubric/index.js";
import { TraitEvaluationError } from "./errors.js";

/**
 * Why a score trait's range is unusable (`min_score ≥ max_score`), or null. Only score kinds of LLM,
 * callable and agentic traits are checked, and only when both bounds are set. OUR ADDITION: the original
 * accepts such a trait and then clamps every score to a single value or rejects every score.
 * @example
 * scoreRangeProblem(parseRubricTrait({ name: "depth", kind: "score", min_score: 5, max_score: 1 }, "llm"));
 * // "min_score (5) must be lower than max_score (1)"
 */
export function scoreRangeProblem(trait: RubricTrait): string | null {
  if (!("min_score" in trait) || trait.kind !== "score") return null;
  const { min_score: min, max_score: max } = trait;
  if (min === null || max === null || min < max) return null;
  return `min_score (${min}) must be lower than max_score (${max})`;
}

/** Throws when {@link scoreRangeProblem} finds a problem. */
export function assertScoreRange(trait: RubricTrait): void {
  const problem = scoreRangeProblem(trait);
  if (problem !== null) throw new TraitEvaluationError(trait.name, trait.type, "min_score", problem);
}
