import type { Insertable } from "kysely";
import {
  digestJson,
  parseVerificationResult,
  RESULT_DIGEST_VERSION,
  type VerificationResult,
} from "../results/index.js";
import type { Dialect } from "./dialect.js";
import type { ResultDigestsTable, VerificationResultsTable } from "./schema.js";

// A result as a row: the columns people filter and index on, copied out of the result, plus the whole result
// as JSON, which is what loading reads back.

/** A token count as an integer column takes it (counts are integers; the schema allows any number). */
const tokens = (value: number | undefined): number | null => (value === undefined ? null : Math.round(value));

/**
 * The row of a result in a run. `questionId` is the benchmark question the result belongs to, when it differs
 * from the result's own `question_id` (an imported result matched by its text).
 */
export function resultRow(
  result: VerificationResult,
  runId: string,
  d: Dialect,
  now: string,
  questionId: string = result.metadata.question_id,
): Insertable<VerificationResultsTable> {
  const { metadata, template } = result;
  const total = template?.usage_metadata?.total;
  const verdict = template?.verify_result ?? null;
  return {
    run_id: runId,
    result_id: metadata.result_id,
    question_id: questionId,
    template_id: metadata.template_id,
    answering_interface: metadata.answering.interface,
    answering_model_name: metadata.answering.model_name,
    parsing_interface: metadata.parsing.interface,
    parsing_model_name: metadata.parsing.model_name,
    replicate: metadata.replicate,
    timestamp: metadata.timestamp,
    run_name: metadata.run_name,
    verify_result: verdict === null ? null : d.bool(verdict),
    completed_without_errors: d.bool(metadata.failure === null),
    failure_category: metadata.failure?.category ?? null,
    failure_stage: metadata.failure?.stage ?? null,
    execution_time: metadata.execution_time,
    input_tokens: tokens(total?.input_tokens),
    output_tokens: tokens(total?.output_tokens),
    total_tokens: tokens(total?.total_tokens),
    result_json: JSON.stringify(result),
    created_at: now,
    updated_at: now,
  };
}

/** The columns an upsert replaces when a result is saved again (all but the key and `created_at`). */
export const REPLACED_COLUMNS = [
  "question_id",
  "template_id",
  "answering_interface",
  "answering_model_name",
  "parsing_interface",
  "parsing_model_name",
  "replicate",
  "timestamp",
  "run_name",
  "verify_result",
  "completed_without_errors",
  "failure_category",
  "failure_stage",
  "execution_time",
  "input_tokens",
  "output_tokens",
  "total_tokens",
  "result_json",
  "updated_at",
] as const satisfies readonly (keyof VerificationResultsTable)[];

/** The row of a result's digest, for the results row `resultPk`. */
export function digestRow(result: VerificationResult, resultPk: number): Insertable<ResultDigestsTable> {
  return { result_pk: resultPk, digest_version: RESULT_DIGEST_VERSION, digest_json: digestJson(result) };
}

/** The result a row holds, validated (a hand-edited row is reported, naming the database and the row). */
export function resultOfRow(resultJson: string, where: string): VerificationResult {
  return parseVerificationResult(JSON.parse(resultJson), where);
}
