import type { ErrorCategory } from "../llm/index.js";
import {
  type Caveat,
  type Failure,
  type FailureCategory,
  failureGroup,
  MAX_FAILURE_REASON,
  RETRY_CATEGORIES,
  type RetryCategory,
  type RetryCounts,
} from "./verification-result.js";

/** The auto-fail stages and the category of the failure each one forces (spec 04 §14.2 rule 1). */
const AUTO_FAIL_STAGES: ReadonlyMap<string, FailureCategory> = new Map([
  ["RecursionLimitAutoFail", "recursion_limit"],
  ["TraceValidationAutoFail", "trace_validation"],
  ["DeepJudgmentAutoFail", "deep_judgment"],
  ["DeepJudgmentRubricAutoFail", "deep_judgment_rubric"],
  ["PlaceholderRetryAutoFail", "connection"],
]);

/**
 * The stages an error is attributed to when parsing failed: the pipeline's three parse stages, and the
 * original's `parse_template` (spec 04 §14.2 rule 7, with the recommended fix).
 */
export const PARSE_STAGES: readonly string[] = [
  "ParseTemplate",
  "AgenticParseTemplate",
  "DynamicParseTemplate",
  "parse_template",
];

/** What the failure classifier looks at: the task's state when the pipeline finalizes. */
export interface FailureInput {
  /** The result field `failed_stage`: the first guard that forced a fail. */
  readonly failedStage?: string | null;
  readonly templateVerificationPerformed?: boolean;
  readonly verifyResult?: boolean | null;
  /** The error marked on the task, if any. */
  readonly error?: string | null;
  readonly errorCategory?: ErrorCategory | null;
  /** The stage the error is attributed to. */
  readonly errorStage?: string | null;
  readonly retryCounts?: RetryCounts | null;
  readonly abstentionDetected?: boolean | null;
  readonly abstentionReasoning?: string | null;
  readonly sufficiencyCheckPerformed?: boolean;
  /** True = the response was found sufficient. */
  readonly sufficiencyDetected?: boolean | null;
  readonly sufficiencyOverrideApplied?: boolean;
  readonly sufficiencyReasoning?: string | null;
  /** Why the template could not be loaded, when it could not. */
  readonly templateValidationError?: string | null;
}

/**
 * Whitespace-trimmed and cut to {@link MAX_FAILURE_REASON} characters (code points, as Python counts).
 * @example
 * failureReason("  timed out\n"); // "timed out"
 * failureReason("x".repeat(600)).length; // 500
 */
export function failureReason(text: string): string {
  const trimmed = text.trim();
  const characters = Array.from(trimmed);
  return characters.length <= MAX_FAILURE_REASON ? trimmed : characters.slice(0, MAX_FAILURE_REASON).join("");
}

function failure(
  category: FailureCategory,
  stage: string,
  reason: string,
  details: Record<string, unknown> | null = null,
): Failure {
  return { category, stage, reason: failureReason(reason), details, group: failureGroup(category) };
}

function isRetryCategory(category: ErrorCategory | null | undefined): category is RetryCategory {
  return (RETRY_CATEGORIES as readonly string[]).includes(category ?? "");
}

/**
 * The verdict of a task (spec 04 §14.2), the first rule that matches:
 * 1. an auto-fail stage forced the fail → its category;
 * 2. template verification ran and failed → `content`;
 * 3. a retryable error whose retry budget is used up → that category;
 * 4. the model abstained → `abstention`;
 * 5. the sufficiency check ran and found the response insufficient → `sufficiency`;
 * 6. the template could not be loaded → `template_validation`;
 * 7. an error in a parse stage → `parsing`;
 * 8. any other error → `unexpected_error`;
 * 9. otherwise null: no failure (which is not the same as `verify_result === true`).
 *
 * Rules 5 and 7 follow the spec's recommended fixes, not the original (see docs/decisions.md). A retryable
 * error whose budget is not used up (a first-attempt timeout of an agent) is an `unexpected_error`, as in
 * the original.
 * @example
 * classifyFailure({ failedStage: "RecursionLimitAutoFail" });
 * // { category: "recursion_limit", stage: "RecursionLimitAutoFail", reason: "auto-fail at stage RecursionLimitAutoFail", details: null, group: "autofail" }
 * classifyFailure({ error: "invalid JSON", errorStage: "ParseTemplate" })?.category; // "parsing"
 * classifyFailure({ templateVerificationPerformed: true, verifyResult: true }); // null
 */
export function classifyFailure(input: FailureInput): Failure | null {
  const failedStage = input.failedStage ?? null;
  const autoFail = failedStage === null ? undefined : AUTO_FAIL_STAGES.get(failedStage);
  if (failedStage !== null && autoFail !== undefined) {
    return failure(autoFail, failedStage, `auto-fail at stage ${failedStage}`);
  }
  if (input.templateVerificationPerformed === true && input.verifyResult === false) {
    return failure("content", "verify_template", "verify_template returned False");
  }
  const error = input.error ?? null;
  const errorStage = input.errorStage ?? "unknown";
  const category = input.errorCategory;
  if (error !== null && isRetryCategory(category) && retriesExhausted(input.retryCounts, category)) {
    return failure(category, errorStage, `${category} retries exhausted`, {
      error_message: error,
      retry_counts: input.retryCounts ?? null,
    });
  }
  if (input.abstentionDetected) {
    return failure("abstention", "abstention_check", input.abstentionReasoning?.trim() || "model abstained");
  }
  const insufficient = input.sufficiencyOverrideApplied === true || input.sufficiencyDetected === false;
  if (input.sufficiencyCheckPerformed === true && insufficient) {
    return failure(
      "sufficiency",
      "sufficiency_check",
      input.sufficiencyReasoning?.trim() || "response insufficient",
    );
  }
  const templateError = input.templateValidationError ?? null;
  if (templateError !== null) {
    return failure("template_validation", "validate_template", templateError, {
      error_message: templateError,
    });
  }
  if (error !== null && PARSE_STAGES.includes(errorStage)) {
    return failure("parsing", errorStage, error, { error_message: error });
  }
  if (error !== null) return failure("unexpected_error", errorStage, error, { error_message: error });
  return null;
}

function retriesExhausted(counts: RetryCounts | null | undefined, category: RetryCategory): boolean {
  const usage = counts?.[category];
  return usage !== undefined && usage.used >= usage.budget;
}

/** What the caveats of a result are computed from. */
export interface CaveatInput {
  /** A timeout cut the answer short and the partial trace was kept. */
  readonly responseTimeoutPartial?: boolean;
  readonly embeddingOverrideApplied?: boolean;
  /** The dynamic parse decision was malformed and escalated. */
  readonly parseDecisionMalformed?: boolean;
  readonly retryCounts?: RetryCounts | null;
}

/**
 * A result's caveats, independent of its verdict, in this order: `partial_content`, `embedding_override`,
 * `parse_decision_malformed`, `retries_used` (some category used a retry).
 * @example
 * caveatsFor({ responseTimeoutPartial: true, retryCounts: { connection: { used: 1, budget: 3 }, timeout: { used: 0, budget: 3 }, rate_limit: { used: 0, budget: 5 }, server_error: { used: 0, budget: 2 } } });
 * // ["partial_content", "retries_used"]
 */
export function caveatsFor(input: CaveatInput): Caveat[] {
  const caveats: Caveat[] = [];
  if (input.responseTimeoutPartial) caveats.push("partial_content");
  if (input.embeddingOverrideApplied) caveats.push("embedding_override");
  if (input.parseDecisionMalformed) caveats.push("parse_decision_malformed");
  if (Object.values(input.retryCounts ?? {}).some((usage) => usage.used > 0)) caveats.push("retries_used");
  return caveats;
}
