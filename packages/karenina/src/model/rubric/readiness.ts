import type { Rubric } from "./rubric.js";

/** One readiness problem, as the original's `validate_rubrics()` reports it. */
export interface RubricReadinessError {
  /** The trait name for the global rubric, `question:<id>` for a question's rubric. */
  source: string;
  error: string;
}

/** The completeness checks of `validate_rubrics()` on one rubric, as `[trait name, message]`. */
function rubricProblems(rubric: Rubric): [string, string][] {
  const problems: [string, string][] = [];
  const described = [
    ...rubric.llm_traits,
    ...rubric.regex_traits,
    ...rubric.callable_traits,
    ...rubric.metric_traits,
  ];
  for (const { name, description } of described) {
    if (name.trim() === "") problems.push([name, "Trait name is required"]);
    if (!description?.trim()) problems.push([name, `Trait '${name}' is missing a description`]);
  }
  for (const { name, kind, min_score, max_score } of rubric.llm_traits) {
    if (kind === "score" && (min_score === null || max_score === null)) {
      problems.push([name, `Score trait '${name}' needs both min_score and max_score`]);
    }
  }
  for (const { name, kind, min_score, max_score } of [
    ...rubric.llm_traits,
    ...rubric.callable_traits,
    ...rubric.agentic_traits,
  ]) {
    // Our addition: the original accepts such a range, but no score can then be both valid and meaningful.
    if (kind === "score" && min_score !== null && max_score !== null && min_score >= max_score) {
      problems.push([name, `Score trait '${name}' has min_score (${min_score}) ≥ max_score (${max_score})`]);
    }
  }
  for (const { name, pattern } of rubric.regex_traits) {
    if (pattern === "") problems.push([name, `Regex trait '${name}' has an empty pattern`]);
  }
  for (const { name, metrics } of rubric.metric_traits) {
    if (metrics.length === 0) problems.push([name, `Metric trait '${name}' has no metrics`]);
  }
  return problems;
}

/**
 * The rubric part of readiness (the original's `validate_rubrics()`, spec 01 §4.9): every LLM, regex,
 * callable and metric trait has a name and a description, LLM score traits have both bounds, regex traits
 * a pattern and metric traits at least one metric. Agentic traits are not checked (as in the original).
 * `source` is `"global"` for the global rubric (each error then names its trait) or `"question:<id>"`.
 * @example
 * validateRubricForReadiness(parseRubric({ regex_traits: [{ name: "cites", pattern: "x" }] }), "global");
 * // [{ source: "cites", error: "Trait 'cites' is missing a description" }]
 */
export function validateRubricForReadiness(rubric: Rubric | null, source: string): RubricReadinessError[] {
  if (rubric === null) return [];
  return rubricProblems(rubric).map(([trait, error]) => ({
    source: source === "global" ? trait || "global" : source,
    error,
  }));
}
