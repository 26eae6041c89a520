import { z } from "zod";
import { displayString, type VerificationResult } from "../results/index.js";

// One results-table row (spec 07 §1.6 "Table"): the few scalars each column shows and filters on, computed once
// per stored result and kept in storage (result_table_rows), so a table of 100,000 rows never reads a trace.

/** Bump when {@link resultTableRow} changes: stored rows of another version are computed again. */
export const RESULT_TABLE_ROW_VERSION = 1;

export const TABLE_STATUSES = ["completed", "failed", "abstained"] as const;
export const TABLE_VERIFICATIONS = ["passed", "failed", "not_evaluated", "n/a"] as const;
export const TABLE_RUBRIC_OUTCOMES = ["passed", "failed", "none"] as const;
export const TABLE_HALLUCINATION_RISKS = ["none", "low", "medium", "high"] as const;

export const ResultTableRowSchema = z
  .object({
    result_id: z.string(),
    run_name: z.string().nullable(),
    question_id: z.string(),
    question_text: z.string(),
    raw_answer: z.string().nullable().describe("The reference answer stored with the result"),
    status: z.enum(TABLE_STATUSES).describe("completed: no failure; abstained: abstention detected"),
    failure_category: z.string().nullable().describe("Shown on hover; null when the row has no failure"),
    failure_reason: z.string().nullable(),
    verification: z.enum(TABLE_VERIFICATIONS),
    keywords: z.array(z.string()),
    answering_model: z.string(),
    parsing_model: z.string(),
    mcp_servers: z.array(z.string()),
    granular_score: z.number().nullable(),
    rubric: z.enum(TABLE_RUBRIC_OUTCOMES).describe("passed when at least half the traits pass"),
    traits: z.record(z.string(), z.union([z.boolean(), z.number()])),
    hallucination_risk: z
      .enum(TABLE_HALLUCINATION_RISKS)
      .nullable()
      .describe("The highest deep-judgment risk"),
    execution_time: z.number(),
    timestamp: z.string(),
    replicate: z.number().int().nullable(),
  })
  .meta({ id: "ResultTableRow" });
export type ResultTableRow = z.infer<typeof ResultTableRowSchema>;

function statusOf(result: VerificationResult): ResultTableRow["status"] {
  const template = result.template;
  if (template?.abstention_check_performed === true && template.abstention_detected === true)
    return "abstained";
  return result.metadata.failure === null ? "completed" : "failed";
}

function verificationOf(result: VerificationResult): ResultTableRow["verification"] {
  const template = result.template;
  if (template === null) return "n/a";
  if (!template.template_verification_performed) return "not_evaluated";
  if (template.verify_result === null) return "n/a";
  return template.verify_result ? "passed" : "failed";
}

/** The boolean and numeric scores of every trait kind (metric traits hold several numbers and are left out). */
function traitValues(result: VerificationResult): Record<string, boolean | number> {
  const rubric = result.rubric;
  if (rubric === null || !rubric.rubric_evaluation_performed) return {};
  const out: Record<string, boolean | number> = {};
  for (const scores of [
    rubric.llm_trait_scores,
    rubric.regex_trait_scores,
    rubric.callable_trait_scores,
    rubric.agentic_trait_scores,
  ] as ReadonlyArray<Record<string, unknown> | null | undefined>) {
    for (const [name, value] of Object.entries(scores ?? {}))
      if (typeof value === "boolean" || typeof value === "number") out[name] = value;
  }
  return out;
}

/** A trait passes when it is true or scores 3 or more (spec 07 §1.6). */
const traitPasses = (value: boolean | number) => value === true || (typeof value === "number" && value >= 3);

function rubricOutcome(traits: Record<string, boolean | number>): ResultTableRow["rubric"] {
  const values = Object.values(traits);
  if (values.length === 0) return "none";
  return values.filter(traitPasses).length * 2 >= values.length ? "passed" : "failed";
}

function highestRisk(result: VerificationResult): ResultTableRow["hallucination_risk"] {
  const risks = Object.values(result.deep_judgment?.hallucination_risk_assessment ?? {});
  if (risks.length === 0) return null;
  return (
    TABLE_HALLUCINATION_RISKS[Math.max(...risks.map((risk) => TABLE_HALLUCINATION_RISKS.indexOf(risk)))] ??
    null
  );
}

/**
 * The table row of a result: the columns of spec 07 §1.6.
 * @example
 * // resultTableRow(result).verification === "passed" when the template ran and verify_result is true
 */
export function resultTableRow(result: VerificationResult): ResultTableRow {
  const m = result.metadata;
  const traits = traitValues(result);
  const granular = result.template?.verify_granular_result;
  return {
    result_id: m.result_id,
    run_name: m.run_name,
    question_id: m.question_id,
    question_text: m.question_text,
    raw_answer: m.raw_answer,
    status: statusOf(result),
    failure_category: m.failure?.category ?? null,
    failure_reason: m.failure?.reason ?? null,
    verification: verificationOf(result),
    keywords: m.keywords ?? [],
    answering_model: displayString(m.answering),
    parsing_model: displayString(m.parsing),
    mcp_servers: result.template?.answering_mcp_servers ?? [],
    granular_score: typeof granular === "number" && Number.isFinite(granular) ? granular : null,
    rubric: rubricOutcome(traits),
    traits,
    hallucination_risk: highestRisk(result),
    execution_time: m.execution_time,
    timestamp: m.timestamp,
    replicate: m.replicate,
  };
}
