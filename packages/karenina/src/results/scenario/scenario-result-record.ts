import { z } from "zod";
import { schemaProblems } from "../../errors/index.js";
import { ScenarioResultRecordError } from "./errors.js";
import { ScenarioStatusSchema } from "./scenario-execution-line.js";

// Field order in the schemas below is the original's model order (spec 08 §6.4), which is what a strict parse
// yields; the progressive sink writes another order (§6.3), given by `scenarioRecordForExport`.

/**
 * One turn of a `scenario_results` record (spec 08 §6.3/§6.4): the node, the text sent, the answer, the
 * judge's parsed fields (without `id`/`correct`, quirk Q14), the verdict and the turn row's `result_id`.
 * Strict: an unknown key is an error.
 */
export const ScenarioTurnRecordSchema = z.strictObject({
  node_id: z.string(),
  /** The text actually sent (a handover transcript included). */
  question_text: z.string(),
  /** `template.raw_llm_response`; `""` when the row has no template section. */
  raw_response: z.string(),
  parsed_fields: z.record(z.string(), z.unknown()).default({}),
  verify_result: z.boolean().nullable(),
  verification_result_id: z.string().nullable(),
});
export type ScenarioTurnRecord = z.output<typeof ScenarioTurnRecordSchema>;
export type ScenarioTurnRecordInput = z.input<typeof ScenarioTurnRecordSchema>;

/** Why an execution ended in `error`, as a record holds it: every field optional. Strict. */
export const ScenarioTerminalFailureRecordSchema = z.strictObject({
  node_id: z.string().nullable().optional(),
  category: z.string().nullable().optional(),
  stage: z.string().nullable().optional(),
  reason: z.string().nullable().optional(),
});
export type ScenarioTerminalFailureRecord = z.output<typeof ScenarioTerminalFailureRecordSchema>;

/** An outcome criterion's value: a boolean, or a number (aggregations, callables). */
export const ScenarioOutcomeValueSchema = z.union([z.boolean(), z.number()]);
export type ScenarioOutcomeValue = z.output<typeof ScenarioOutcomeValueSchema>;

/**
 * One scenario execution in a JSON export's `scenario_results` (spec 08 §6.3, validated as §6.4): strict, so
 * an unknown key anywhere in it is an error, as in the original.
 * @example
 * const record = ScenarioResultRecordSchema.parse({
 *   scenario_id: "capital-pushback", status: "completed", path: ["ask"], turn_count: 1,
 *   terminal_failure: null, replicate: null,
 * });
 * record.history; // []
 * record.outcome_results; // {}
 */
export const ScenarioResultRecordSchema = z.strictObject({
  scenario_id: z.string(),
  /** `timeout` is accepted but never written (quirk Q2). */
  status: ScenarioStatusSchema,
  path: z.array(z.string()).default([]),
  turn_count: z.int(),
  history: z.array(ScenarioTurnRecordSchema).default([]),
  outcome_results: z.record(z.string(), ScenarioOutcomeValueSchema).default({}),
  terminal_failure: ScenarioTerminalFailureRecordSchema.nullable(),
  replicate: z.int().nullable(),
});
export type ScenarioResultRecord = z.output<typeof ScenarioResultRecordSchema>;
export type ScenarioResultRecordInput = z.input<typeof ScenarioResultRecordSchema>;

const RECORD_KEYS = Object.keys(ScenarioResultRecordSchema.shape);
const TURN_KEYS = Object.keys(ScenarioTurnRecordSchema.shape);
const FAILURE_KEYS = Object.keys(ScenarioTerminalFailureRecordSchema.shape);

function allowedKeys(path: readonly PropertyKey[]): readonly string[] | undefined {
  if (path.length === 0) return RECORD_KEYS;
  if (path.length === 1 && path[0] === "terminal_failure") return FAILURE_KEYS;
  if (path.length === 2 && path[0] === "history") return TURN_KEYS;
  return undefined;
}

/**
 * Validates the `index`-th item of `scenario_results` (defaults filled in).
 * @throws {ScenarioResultRecordError} `Invalid scenario result at index <i>` (the original's message) with
 * each field at fault.
 * @example
 * const item = { scenario_id: "s", status: "error", turn_count: 0, terminal_failure: {}, replicate: 2 };
 * parseScenarioResultRecord(item, 0).replicate; // 2
 */
export function parseScenarioResultRecord(value: unknown, index: number): ScenarioResultRecord {
  const parsed = ScenarioResultRecordSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new ScenarioResultRecordError(index, schemaProblems(parsed.error, value, allowedKeys));
}

/** A turn in the order the progressive sink writes it (spec 08 §6.3). */
function turnForExport(turn: ScenarioTurnRecord): ScenarioTurnRecord {
  return {
    node_id: turn.node_id,
    question_text: turn.question_text,
    raw_response: turn.raw_response,
    parsed_fields: turn.parsed_fields,
    verify_result: turn.verify_result,
    verification_result_id: turn.verification_result_id,
  };
}

/**
 * A record with its keys in the order the original's progressive sink writes them (spec 08 §6.3):
 * `scenario_id, status, path, turn_count, replicate, terminal_failure, outcome_results, history`, history
 * items `node_id, question_text, raw_response, parsed_fields, verify_result, verification_result_id`. Written
 * with `pythonJson`, it gives the original's bytes.
 * @example
 * const record = ScenarioResultRecordSchema.parse({
 *   scenario_id: "s", status: "completed", turn_count: 0, terminal_failure: null, replicate: null,
 * });
 * Object.keys(scenarioRecordForExport(record));
 * // ["scenario_id", "status", "path", "turn_count", "replicate", "terminal_failure", "outcome_results", "history"]
 */
export function scenarioRecordForExport(record: ScenarioResultRecord): ScenarioResultRecord {
  return {
    scenario_id: record.scenario_id,
    status: record.status,
    path: record.path,
    turn_count: record.turn_count,
    replicate: record.replicate,
    terminal_failure: record.terminal_failure,
    outcome_results: record.outcome_results,
    history: record.history.map(turnForExport),
  };
}
