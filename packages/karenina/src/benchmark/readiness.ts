import type { QueryRow } from "./queries.js";

/** A template that failed the syntax check. */
export interface TemplateProblem {
  question_id: string;
  error: string;
}

/** A rubric trait missing what it needs (`source` is the trait name, `"global"` or `"question:<id>"`). */
export interface RubricProblem {
  source: string;
  error: string;
}

/** The original's readiness report (spec 01 §4.10), keys in its order. */
export interface ReadinessReport {
  ready_for_verification: boolean;
  has_questions: boolean;
  all_have_templates: boolean;
  all_finished: boolean;
  templates_valid: boolean;
  rubrics_valid: boolean;
  missing_templates_count: number;
  /** A float in the original (`2.0`); a plain number here. */
  unfinished_count: number;
  template_errors_count: number;
  rubric_errors_count: number;
  missing_templates: string[];
  unfinished_questions: string[];
  template_errors: TemplateProblem[];
  rubric_errors: RubricProblem[];
}

export function readinessReport(
  rows: readonly QueryRow[],
  templateErrors: TemplateProblem[],
  rubricErrors: RubricProblem[],
): ReadinessReport {
  const missing = rows.filter((row) => !row.hasTemplate).map((row) => row.record.id);
  const unfinished = rows.filter((row) => !row.finished).map((row) => row.record.id);
  const has_questions = rows.length > 0;
  const all_have_templates = missing.length === 0;
  const all_finished = unfinished.length === 0;
  const templates_valid = templateErrors.length === 0;
  const rubrics_valid = rubricErrors.length === 0;
  return {
    ready_for_verification:
      has_questions && all_have_templates && all_finished && templates_valid && rubrics_valid,
    has_questions,
    all_have_templates,
    all_finished,
    templates_valid,
    rubrics_valid,
    missing_templates_count: missing.length,
    unfinished_count: unfinished.length,
    template_errors_count: templateErrors.length,
    rubric_errors_count: rubricErrors.length,
    missing_templates: missing,
    unfinished_questions: unfinished,
    template_errors: templateErrors,
    rubric_errors: rubricErrors,
  };
}

export type HealthStatus = "excellent" | "good" | "fair" | "poor" | "critical";

/**
 * The health score of seed 004: 20 for having questions, up to 30 for progress (finished share, truncated),
 * 25 for valid templates, 15 for valid rubrics, 10 when all are finished. No questions scores 0. As in the
 * original, missing templates do not lower the score; they show up in the recommendations.
 */
export function healthScore(readiness: ReadinessReport, progressPercent: number): number {
  if (!readiness.has_questions) return 0;
  let score = 20 + Math.trunc((progressPercent / 100) * 30);
  if (readiness.templates_valid) score += 25;
  if (readiness.rubrics_valid) score += 15;
  if (readiness.all_finished) score += 10;
  return Math.min(score, 100);
}

export function healthStatus(score: number): HealthStatus {
  if (score >= 90) return "excellent";
  if (score >= 75) return "good";
  if (score >= 50) return "fair";
  if (score >= 25) return "poor";
  return "critical";
}

/** The original's recommendations, in its order, each only when it applies. */
export function healthRecommendations(
  readiness: ReadinessReport,
  questionCount: number,
  hasGlobalRubric: boolean,
): string[] {
  const out: string[] = [];
  if (!readiness.has_questions) out.push("Add questions to the benchmark");
  if (readiness.missing_templates_count > 0)
    out.push(`Add templates to ${readiness.missing_templates_count} questions`);
  // The original prints the unfinished count as a float ("Mark 1.0 questions as finished"); mirrored (quirk Q8).
  if (readiness.unfinished_count > 0)
    out.push(`Mark ${readiness.unfinished_count.toFixed(1)} questions as finished`);
  if (!readiness.templates_valid) out.push("Fix template syntax errors");
  if (!readiness.rubrics_valid) out.push("Fix rubric configuration issues");
  if (questionCount < 5) out.push("Consider adding more questions for a robust benchmark");
  if (!hasGlobalRubric) out.push("Consider adding a global rubric for consistent evaluation");
  return out;
}
