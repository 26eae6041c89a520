import { KareninaError } from "../errors/index.js";

/** A JSON Schema object, as the judge LLM receives it. */
export type JsonSchema = { [key: string]: unknown };

/** How a template is written: declarative (TemplateSpec / VerifiedField), JavaScript (QuickJS) or Python (Pyodide). */
export type TemplateRuntime = "declarative" | "javascript" | "python";

/**
 * What a template's verdict may look at besides the parsed answer (spec 02 §2.7): the answering model's raw
 * response (for regex checks and trace primitives), the question id, and in scenarios the results of earlier nodes.
 */
export interface TemplateRunContext {
  rawResponse?: string;
  questionId?: string;
  scenarioContext?: { node_results: Record<string, unknown> };
}

/** One regex check of `self.regex` (spec 02 §2.6). */
export interface RegexCheck {
  pattern: string;
  expected: unknown;
  match_type: "exact" | "contains" | "count" | "all" | string;
}

/** The outcome of the regex checks on the raw response: `verify_regex(text)` of the original. */
export interface RegexReport {
  success: boolean;
  results: Record<string, boolean>;
  details: Record<string, Record<string, unknown>>;
}

/**
 * Everything one verification yields (spec 02 §2.3–2.7). `verify` is the final verdict: the field checks AND
 * the regex checks. When the field checks raise, `verify` is false, `verifyGranular` is null and `error` says
 * why (`Field verification failed: <exception>`).
 */
export interface TemplateEvaluation {
  verify: boolean;
  /** The field checks alone (`verify()` of the template), before the regex checks are combined in. */
  fieldVerify: boolean;
  /** Partial credit in [0, 1], or null when the template has none or its field checks failed to run. */
  verifyGranular: number | null;
  /** Per-field results of VerifiedField templates (null = the judge returned null); empty for classic templates. */
  fieldResults: Record<string, boolean | null>;
  regex: RegexReport;
  error: string | null;
}

/**
 * The contract every template kind implements, whatever it is written in. A template is loaded (and so
 * validated) once; its schema and ground truth are then plain data, and each verification is one call.
 */
export interface AnswerTemplate {
  readonly runtime: TemplateRuntime;
  /** The answer class name (never renamed, spec 02 §1.2). */
  readonly className: string;
  /** `verified` when every field is declarative, `classic` when none is, `mixed` otherwise (spec 02 §1). */
  readonly mode: "classic" | "verified" | "mixed";
  /** The schema embedded in the judge's prompt: ground truth and trace fields stripped (spec 02 §3.1). */
  readonly judgeSchema: JsonSchema;
  /** The schema of the structured-output request: the relaxed sibling class of spec 02 §3.1. */
  readonly structuredOutputSchema: JsonSchema;
  /** The ground truth (`self.correct` of a dummy instance, spec 02 §2.2), or null when the template sets none. */
  readonly groundTruth: Record<string, unknown> | null;
  /** `VerifiedField(extraction_hint=…)` values by field name (spec 02 §3.2). */
  readonly extractionHints: Record<string, string>;
  /** The template has no fields for the judge to fill: only regex checks and/or trace primitives (spec 02 §2.7). */
  readonly needsNoJudge: boolean;
  /**
   * Verifies a parsed answer (the judge's JSON). Coercion follows the original's (Pydantic lax) rules; a value
   * that cannot be coerced makes the evaluation fail with an error, not throw.
   */
  evaluate(parsed: Record<string, unknown>, context?: TemplateRunContext): Promise<TemplateEvaluation>;
}

/** A template that is invalid (spec 02 §8) or cannot be loaded; the message says what to fix. */
export class TemplateError extends KareninaError {
  override readonly name: string = "TemplateError";
}
