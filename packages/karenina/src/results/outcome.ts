/**
 * The one definition of "passed", "failed" and "pass rate" that every summary uses: the library's
 * `summarizeResults`, the run summary and progress bar, `karenina results`, `--fail-under` and the docs.
 */
import { ratio } from "./statistics.js";
import type { VerificationResult } from "./verification-result.js";

/**
 * What a row came to:
 * - `passed`: no failure, template verification ran, and `verify_result` is true;
 * - `failed`: the row has a failure (whatever its `verify_result`: a row that timed out after its verification
 *   gave true is failed, not passed), or template verification ran and did not give true;
 * - `not_evaluated`: no failure and no template verification (e.g. a rubric-only row).
 */
export type RowOutcome = "passed" | "failed" | "not_evaluated";

/**
 * The outcome of a row (see {@link RowOutcome}).
 * @example
 * const row = (template, failure = null) => parseVerificationResult({
 *   metadata: { question_id: "q1", template_id: "t", question_text: "Why?", failure,
 *     answering: { interface: "openai", model_name: "gpt-4.1" }, parsing: { interface: "openai", model_name: "gpt-4.1" },
 *     execution_time: 1, timestamp: "2026-04-21 12:00:00", result_id: "0000000000000001" },
 *   template,
 * });
 * const timeout = { category: "timeout", stage: "generate_answer", reason: "timed out" };
 * rowOutcome(row({ template_verification_performed: true, verify_result: true })); // "passed"
 * rowOutcome(row({ template_verification_performed: true, verify_result: true }, timeout)); // "failed"
 * rowOutcome(row({}, timeout)); // "failed"
 * rowOutcome(row({})); // "not_evaluated"
 */
export function rowOutcome(result: VerificationResult): RowOutcome {
  if (result.metadata.failure !== null) return "failed";
  const template = result.template;
  if (template?.template_verification_performed !== true) return "not_evaluated";
  return template.verify_result === true ? "passed" : "failed";
}

/**
 * The pass rate of `passed` and `failed` results: passed / (passed + failed), in [0, 1]; 0 when there is
 * neither. Rows not evaluated (no failure, no template verification) are left out; every failure counts
 * against the rate, abstentions and system failures included.
 * @example
 * passRateOf(3, 1); // 0.75
 * passRateOf(0, 0); // 0
 */
export function passRateOf(passed: number, failed: number): number {
  return ratio(passed, passed + failed);
}

/** How a group of results came out, by {@link rowOutcome}. */
export interface OutcomeCounts {
  results: number;
  passed: number;
  failed: number;
  not_evaluated: number;
  /** Results whose template verification ran (with or without a failure). */
  verified: number;
  /** `passed / (passed + failed)` ({@link passRateOf}), in [0, 1]. */
  pass_rate: number;
  /** `pass_rate` in %. */
  pass_pct: number;
}

/**
 * Counts results by outcome.
 * @example
 * outcomeCounts([]); // { results: 0, passed: 0, failed: 0, not_evaluated: 0, verified: 0, pass_rate: 0, pass_pct: 0 }
 */
export function outcomeCounts(results: Iterable<VerificationResult>): OutcomeCounts {
  const counts = { results: 0, passed: 0, failed: 0, not_evaluated: 0, verified: 0 };
  for (const result of results) {
    counts.results++;
    counts[rowOutcome(result)]++;
    if (result.template?.template_verification_performed === true) counts.verified++;
  }
  const rate = passRateOf(counts.passed, counts.failed);
  return { ...counts, pass_rate: rate, pass_pct: rate * 100 };
}
