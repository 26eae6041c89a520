import type { VerificationResult } from "../../results/index.js";

/** Which score map of the rubric section a trait's scores come from. */
export type TraitScoreSource = "llm" | "regex" | "callable" | "metric" | "agentic";

/** A trait's scores over every result of a scope (all questions and replicates). */
export interface TraitScoreSummary {
  source: TraitScoreSource;
  /** Results with a score for the trait. */
  count: number;
  /** Share of `true` among boolean scores; null when no score is a boolean. */
  passRate: number | null;
  /** Mean, lowest and highest numeric score; null when no score is a number. */
  mean: number | null;
  min: number | null;
  max: number | null;
  /** Literal traits: how many results got each class label; null for other traits. */
  labels: Record<string, number> | null;
}

/** The counts of a scope's evaluation. */
export interface StepEvalSummary {
  /** Questions with at least one result. */
  questions: number;
  /** Results: one per question and replicate. */
  total: number;
  /** Results whose template verification passed, without a failure record. */
  passed: number;
  /** Results with a failure record (a failed verification, a guard, an error). */
  failed: number;
  /** Questions that could not be evaluated at all (see `failedQuestions`). */
  failedQuestions: number;
  /** Trait name → its scores; metric traits appear as `trait.metric`, template-kind LLM traits as `trait.field`. */
  rubricScores: Record<string, TraitScoreSummary>;
}

interface TraitValues {
  source: TraitScoreSource;
  values: unknown[];
  labels: string[];
}

function collectScores(results: readonly VerificationResult[]): Map<string, TraitValues> {
  const traits = new Map<string, TraitValues>();
  const add = (name: string, source: TraitScoreSource, value: unknown, label?: string) => {
    let entry = traits.get(name);
    if (entry === undefined) {
      entry = { source, values: [], labels: [] };
      traits.set(name, entry);
    }
    entry.values.push(value);
    if (label !== undefined) entry.labels.push(label);
  };
  for (const { rubric } of results) {
    if (rubric === null) continue;
    for (const [name, value] of Object.entries(rubric.llm_trait_scores ?? {})) {
      add(name, "llm", value, rubric.llm_trait_labels?.[name]);
    }
    for (const [name, value] of Object.entries(rubric.regex_trait_scores ?? {})) add(name, "regex", value);
    for (const [name, value] of Object.entries(rubric.callable_trait_scores ?? {}))
      add(name, "callable", value);
    for (const [name, metrics] of Object.entries(rubric.metric_trait_scores ?? {})) {
      for (const [metric, value] of Object.entries(metrics)) add(`${name}.${metric}`, "metric", value);
    }
    for (const [name, value] of Object.entries(rubric.agentic_trait_scores ?? {})) {
      if (value !== null) add(name, "agentic", value);
    }
  }
  return traits;
}

function summarizeTrait({ source, values, labels }: TraitValues): TraitScoreSummary {
  const booleans = values.filter((value): value is boolean => typeof value === "boolean");
  const numbers = values.filter((value): value is number => typeof value === "number");
  const labelCounts: Record<string, number> = {};
  for (const label of labels) labelCounts[label] = (labelCounts[label] ?? 0) + 1;
  return {
    source,
    count: values.length,
    passRate: booleans.length === 0 ? null : booleans.filter(Boolean).length / booleans.length,
    mean: numbers.length === 0 ? null : numbers.reduce((sum, n) => sum + n, 0) / numbers.length,
    min: numbers.length === 0 ? null : Math.min(...numbers),
    max: numbers.length === 0 ? null : Math.max(...numbers),
    labels: labels.length === 0 ? null : labelCounts,
  };
}

/**
 * The evaluation of one scope of a TaskEval (the global scope or a step): the results of each question, one per
 * replicate, and the questions that could not be evaluated with the reasons why.
 */
export class StepEval {
  constructor(
    /** Question id → its results, in replicate order. */
    readonly verificationResults: Record<string, VerificationResult[]>,
    /** Question id → why it has no result. */
    readonly failedQuestions: Record<string, string[]>,
  ) {}

  /** Every result, question by question. */
  get results(): VerificationResult[] {
    return Object.values(this.verificationResults).flat();
  }

  /** Passed, failed and total counts, and each rubric trait's scores over every result. */
  summary(): StepEvalSummary {
    const results = this.results;
    const failed = results.filter(
      (result) => result.metadata.failure !== null || result.template?.verify_result === false,
    ).length;
    const passed = results.filter(
      (result) => result.metadata.failure === null && result.template?.verify_result === true,
    ).length;
    const rubricScores: Record<string, TraitScoreSummary> = {};
    for (const [name, values] of collectScores(results)) rubricScores[name] = summarizeTrait(values);
    return {
      questions: Object.values(this.verificationResults).filter((list) => list.length > 0).length,
      total: results.length,
      passed,
      failed,
      failedQuestions: Object.keys(this.failedQuestions).length,
      rubricScores,
    };
  }

  /** The stored form: `{verification_results, failed_questions}`, snake_case as the original's export. */
  toJSON(): {
    verification_results: Record<string, VerificationResult[]>;
    failed_questions: Record<string, string[]>;
  } {
    return { verification_results: this.verificationResults, failed_questions: this.failedQuestions };
  }

  /** {@link toJSON} as JSON text, indented by 2 spaces. */
  exportJson(): string {
    return JSON.stringify(this, null, 2);
  }
}
