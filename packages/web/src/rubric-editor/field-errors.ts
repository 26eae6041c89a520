/**
 * What a trait card says is wrong with its own fields, before the server is asked: the same rules as the
 * library's schemas (spec 03) plus the editor's bounds (score 1–10, fuzzy threshold 0–1), worded for the form.
 */
import type { LlmTrait, MetricTrait, RubricTrait } from "../library-types/index.js";

/** Field → message; a field with no problem is absent. */
export type FieldErrors = Partial<Record<string, string>>;

/** One literal class as the form edits it (a record cannot hold a blank or repeated name while typing). */
export interface ClassRow {
  readonly name: string;
  readonly description: string;
}

export const MIN_CLASSES = 2;
export const MAX_CLASSES = 20;
export const SCORE_BOUNDS = { min: 1, max: 10 } as const;

/** The rows of a classes record, in class-index order. */
export function classRows(classes: Record<string, string> | null): ClassRow[] {
  return Object.entries(classes ?? {}).map(([name, description]) => ({ name, description }));
}

/** The record of the rows, or null while two rows share a name exactly (a record would lose one). */
export function rowsToClasses(rows: readonly ClassRow[]): Record<string, string> | null {
  const classes: Record<string, string> = {};
  for (const { name, description } of rows) {
    if (Object.hasOwn(classes, name) || name === "__proto__") return null;
    classes[name] = description;
  }
  return classes;
}

/** The first problem of literal classes (spec 03 §2.2, with the library's messages), or null. */
export function classesProblem(rows: readonly ClassRow[]): string | null {
  if (rows.length < MIN_CLASSES) return "Literal trait must have at least 2 classes";
  if (rows.length > MAX_CLASSES) return `Literal trait cannot have more than ${MAX_CLASSES} classes`;
  const seen = new Set<string>();
  for (const { name, description } of rows) {
    if (name.trim() === "") return "Class names cannot be empty";
    if (description.trim() === "") return `Description for class '${name}' cannot be empty`;
    const folded = name.toLowerCase();
    if (seen.has(folded)) return `Duplicate class name (case-insensitive): '${name}'`;
    seen.add(folded);
  }
  return null;
}

/** The problem of a trait name within its rubric, or null. */
export function nameProblem(name: string, duplicated: boolean): string | null {
  if (name.trim() === "") return "Name is required";
  if (name.includes(".")) return "Name cannot contain '.' (reserved for structured result keys)";
  if (name === "__proto__") return '"__proto__" cannot be a trait name';
  if (duplicated) return `Another trait of this rubric is named '${name}' (names are unique, ignoring case)`;
  return null;
}

const isWhole = (value: number | null, min: number, max = Number.POSITIVE_INFINITY) =>
  value === null || (Number.isInteger(value) && value >= min && value <= max);

function scoreErrors({ min_score, max_score }: LlmTrait): FieldErrors {
  const errors: FieldErrors = {};
  const bounds = `a whole number from ${SCORE_BOUNDS.min} to ${SCORE_BOUNDS.max}`;
  if (min_score === null || !isWhole(min_score, SCORE_BOUNDS.min, SCORE_BOUNDS.max))
    errors.min_score = `Minimum must be ${bounds}`;
  if (max_score === null || !isWhole(max_score, SCORE_BOUNDS.min, SCORE_BOUNDS.max))
    errors.max_score = `Maximum must be ${bounds}`;
  if (min_score !== null && max_score !== null && min_score >= max_score)
    errors.max_score = "Maximum must be above the minimum";
  return errors;
}

function deepJudgmentErrors(trait: LlmTrait): FieldErrors {
  if (!trait.deep_judgment_enabled) return {};
  const errors: FieldErrors = {};
  if (!isWhole(trait.deep_judgment_max_excerpts, 1))
    errors.deep_judgment_max_excerpts = "Max excerpts must be a whole number of at least 1 (or empty)";
  const threshold = trait.deep_judgment_fuzzy_match_threshold;
  if (threshold !== null && !(threshold >= 0 && threshold <= 1))
    errors.deep_judgment_fuzzy_match_threshold = "Fuzzy threshold must be between 0 and 1 (or empty)";
  if (!isWhole(trait.deep_judgment_excerpt_retry_attempts, 0))
    errors.deep_judgment_excerpt_retry_attempts =
      "Retry attempts must be a whole number, 0 or more (or empty)";
  return errors;
}

function llmErrors(trait: LlmTrait): FieldErrors {
  const kindErrors: FieldErrors =
    trait.kind === "score"
      ? scoreErrors(trait)
      : trait.kind === "literal"
        ? { classes: classesProblem(classRows(trait.classes)) ?? undefined }
        : {};
  return { ...kindErrors, ...deepJudgmentErrors(trait) };
}

function metricErrors(trait: MetricTrait): FieldErrors {
  const filled = (list: readonly string[]) => list.some((line) => line.trim() !== "");
  return {
    metrics: trait.metrics.length === 0 ? "Choose at least one metric" : undefined,
    tp_instructions: filled(trait.tp_instructions)
      ? undefined
      : "Add at least one TP instruction (what the response should contain)",
    tn_instructions:
      trait.evaluation_mode === "full_matrix" && !filled(trait.tn_instructions)
        ? "Add at least one TN instruction (what the response should not contain)"
        : undefined,
  };
}

/** Drops the fields without a message. */
function present(errors: FieldErrors): FieldErrors {
  return Object.fromEntries(Object.entries(errors).filter(([, message]) => message !== undefined));
}

/**
 * The problems of a trait's own fields (name included), by field.
 * @param duplicated whether another trait of the same rubric has this name, ignoring case
 */
export function traitFieldErrors(trait: RubricTrait, duplicated: boolean): FieldErrors {
  const name = nameProblem(trait.name, duplicated);
  const own =
    trait.type === "llm"
      ? llmErrors(trait)
      : trait.type === "metric"
        ? metricErrors(trait)
        : trait.type === "regex" && trait.pattern === ""
          ? { pattern: "Enter a pattern" }
          : {};
  return present({ ...(name === null ? {} : { name }), ...own });
}
