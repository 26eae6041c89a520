import type { ScenarioOutcomeValue, ScenarioResultRecord } from "./scenario-result-record.js";

type ScenarioStatus = ScenarioResultRecord["status"];

/**
 * One execution as a row of the original's `ScenarioResults.to_dataframe()` (spec 08 §6.6); the
 * `outcome_<name>` columns follow, one per name in the sorted union over all executions (null when missing).
 */
export interface ScenarioExecutionRow {
  scenario_id: string;
  status: ScenarioStatus;
  /** Node ids joined with `->`. */
  scenario_path: string;
  turn_count: number | null;
  replicate: number | null;
  terminal_failure_node: string | null;
  terminal_failure_category: string | null;
  terminal_failure_stage: string | null;
  terminal_failure_reason: string | null;
  [outcome: `outcome_${string}`]: ScenarioOutcomeValue | null;
}

/** One turn as a row of `to_turn_dataframe()` (spec 08 §6.6). */
export interface ScenarioTurnRow {
  scenario_id: string;
  status: ScenarioStatus;
  replicate: number | null;
  /** The turn's index in the history. */
  scenario_turn: number;
  node_id: string;
  question_text: string;
  raw_response: string;
  parsed_fields: Record<string, unknown>;
  verify_result: boolean | null;
  verification_result_id: string | null;
}

/** `boolean` for booleans, `integer` for integral numbers, else `number` (spec 08 §6.6). */
export type ScenarioOutcomeType = "boolean" | "integer" | "number";

/** One outcome of one execution as a row of `to_outcome_dataframe()` (spec 08 §6.6). */
export interface ScenarioOutcomeRow {
  scenario_id: string;
  status: ScenarioStatus;
  replicate: number | null;
  outcome_name: string;
  outcome_value: ScenarioOutcomeValue;
  outcome_type: ScenarioOutcomeType;
}

/**
 * The type of an outcome value. A JS number cannot tell the Python float `2.0` from the int `2`: an integral
 * value reads as `integer`.
 */
export function outcomeType(value: ScenarioOutcomeValue): ScenarioOutcomeType {
  if (typeof value === "boolean") return "boolean";
  return Number.isInteger(value) ? "integer" : "number";
}

const sortedNames = (records: readonly ScenarioResultRecord[]) =>
  [...new Set(records.flatMap((record) => Object.keys(record.outcome_results)))].sort();

/**
 * One row per execution with the columns of spec 08 §6.6, `outcome_<name>` for the sorted union of outcome
 * names last.
 * @example
 * const record = ScenarioResultRecordSchema.parse({ scenario_id: "s", status: "completed", path: ["ask", "confirm"],
 *   turn_count: 2, outcome_results: { held: true }, terminal_failure: null, replicate: null });
 * const [row] = scenarioExecutionTable([record]);
 * row?.scenario_path; // "ask->confirm"
 * row?.outcome_held; // true
 */
export function scenarioExecutionTable(records: readonly ScenarioResultRecord[]): ScenarioExecutionRow[] {
  const names = sortedNames(records);
  return records.map((record) => {
    const failure = record.terminal_failure;
    const row: ScenarioExecutionRow = {
      scenario_id: record.scenario_id,
      status: record.status,
      scenario_path: record.path.join("->"),
      turn_count: record.turn_count,
      replicate: record.replicate,
      terminal_failure_node: failure?.node_id ?? null,
      terminal_failure_category: failure?.category ?? null,
      terminal_failure_stage: failure?.stage ?? null,
      terminal_failure_reason: failure?.reason ?? null,
    };
    for (const name of names) row[`outcome_${name}`] = record.outcome_results[name] ?? null;
    return row;
  });
}

/**
 * One row per history entry (spec 08 §6.6 `to_turn_dataframe()`).
 * @example
 * scenarioTurnTable([]); // []
 */
export function scenarioTurnTable(records: readonly ScenarioResultRecord[]): ScenarioTurnRow[] {
  return records.flatMap((record) =>
    record.history.map((turn, index) => ({
      scenario_id: record.scenario_id,
      status: record.status,
      replicate: record.replicate,
      scenario_turn: index,
      node_id: turn.node_id,
      question_text: turn.question_text,
      raw_response: turn.raw_response,
      parsed_fields: turn.parsed_fields,
      verify_result: turn.verify_result,
      verification_result_id: turn.verification_result_id,
    })),
  );
}

/**
 * One row per outcome of each execution, names sorted within an execution (spec 08 §6.6
 * `to_outcome_dataframe()`).
 * @example
 * const record = ScenarioResultRecordSchema.parse({ scenario_id: "s", status: "completed", turn_count: 1,
 *   outcome_results: { pushes: 2, held: true }, terminal_failure: null, replicate: null });
 * scenarioOutcomeTable([record]).map((row) => `${row.outcome_name}:${row.outcome_type}`); // ["held:boolean", "pushes:integer"]
 */
export function scenarioOutcomeTable(records: readonly ScenarioResultRecord[]): ScenarioOutcomeRow[] {
  return records.flatMap((record) =>
    Object.keys(record.outcome_results)
      .sort()
      .map((name) => {
        const value = record.outcome_results[name] as ScenarioOutcomeValue;
        return {
          scenario_id: record.scenario_id,
          status: record.status,
          replicate: record.replicate,
          outcome_name: name,
          outcome_value: value,
          outcome_type: outcomeType(value),
        };
      }),
  );
}
