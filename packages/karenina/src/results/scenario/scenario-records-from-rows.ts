import { canonicalKey } from "../model-identity.js";
import type { VerificationResult } from "../verification-result.js";
import type { ScenarioExecutionSummary } from "./scenario-execution-line.js";
import type {
  ScenarioOutcomeValue,
  ScenarioResultRecord,
  ScenarioTerminalFailureRecord,
  ScenarioTurnRecord,
} from "./scenario-result-record.js";

/** Whether a row is a scenario turn (it names its scenario). */
export function isScenarioRow(row: VerificationResult): boolean {
  return (row.metadata.scenario_id ?? "") !== "";
}

/** Rows by `result_id` (a list: a file may hold one id twice), for joining records and summaries to rows. */
export function scenarioRowsById(rows: readonly VerificationResult[]): Map<string, VerificationResult[]> {
  const byId = new Map<string, VerificationResult[]>();
  for (const row of rows) {
    const same = byId.get(row.metadata.result_id) ?? [];
    same.push(row);
    byId.set(row.metadata.result_id, same);
  }
  return byId;
}

/** A history item from a turn row (spec 08 §6.3): the judge's fields, not the live object's (Q14). */
function turnRecord(row: VerificationResult): ScenarioTurnRecord {
  return {
    node_id: row.metadata.scenario_node ?? "",
    question_text: row.metadata.question_text,
    raw_response: row.template?.raw_llm_response ?? "",
    parsed_fields: row.template?.parsed_llm_response ?? {},
    verify_result: row.template?.verify_result ?? null,
    verification_result_id: row.metadata.result_id,
  };
}

/** Outcomes a record can hold: a null value (a callable that returned None) is left out (Q32). */
function recordOutcomes(outcomes: ScenarioExecutionSummary["outcome_results"]) {
  const kept: Record<string, ScenarioOutcomeValue> = {};
  for (const [name, value] of Object.entries(outcomes)) if (value !== null) kept[name] = value;
  return kept;
}

const turnOf = (row: VerificationResult) => row.metadata.scenario_turn ?? 0;

/**
 * The §6.3 record of one scenario execution from its summary (the run-log line written after its rows) and
 * its turn rows: status, path, turn count, replicate, terminal failure and outcomes are the summary's (the
 * true status, `limit_reached` included: quirk Q29 fixed; the evaluated outcomes: Q32 fixed; null outcome
 * values, which a record cannot hold, are left out), the history comes from the rows, in the order of the
 * summary's `result_ids` (rows it does not list after them, by turn).
 * @example
 * const summary = { combo_key: "s\ta:m:\tj:m:", scenario_id: "s", status: "limit_reached", replicate: null,
 *   path: [], turn_count: 0, outcome_results: { held: true, pushes: null }, terminal_failure: null, result_ids: [] };
 * const record = scenarioRecord(summary, []);
 * record.status; // "limit_reached"
 * record.outcome_results; // { held: true }
 */
export function scenarioRecord(
  summary: ScenarioExecutionSummary,
  rows: readonly VerificationResult[],
): ScenarioResultRecord {
  const position = new Map(summary.result_ids.map((id, at) => [id, at]));
  const order = (row: VerificationResult) =>
    position.get(row.metadata.result_id) ?? position.size + turnOf(row);
  const turns = [...rows].sort((a, b) => order(a) - order(b));
  return {
    scenario_id: summary.scenario_id,
    status: summary.status,
    path: [...summary.path],
    turn_count: summary.turn_count,
    history: turns.map(turnRecord),
    outcome_results: recordOutcomes(summary.outcome_results),
    terminal_failure: summary.terminal_failure === null ? null : { ...summary.terminal_failure },
    replicate: summary.replicate,
  };
}

/** A row's own combo key (spec 08 §5.8.1 `_scenario_manifest_key` without a manifest): as `combo_key` writes it. */
function rowComboKey(row: VerificationResult): string {
  const { metadata } = row;
  const base = `${metadata.scenario_id}\t${canonicalKey(metadata.answering)}\t${canonicalKey(metadata.parsing)}`;
  return metadata.replicate === null ? base : `${base}\trep${metadata.replicate}`;
}

/** Whether a failure ends an execution in `error`: any failure but a content one (spec 08 §6.3). */
function isTerminal(row: VerificationResult): boolean {
  const failure = row.metadata.failure;
  return failure !== null && failure.category !== "content" && failure.group !== "content";
}

/**
 * The record the original's sink rebuilds from the rows of one combo (spec 08 §6.3): rows sorted by turn
 * (null as 0), status `error` when the last row's failure is not a content one, else `completed`, outcomes
 * `{}` (the rows do not hold them).
 */
function recordFromRowsOnly(rows: readonly VerificationResult[]): ScenarioResultRecord {
  const turns = [...rows].sort((a, b) => turnOf(a) - turnOf(b));
  const last = turns[turns.length - 1];
  const failed = last !== undefined && isTerminal(last);
  const failure = last?.metadata.failure ?? null;
  const terminal: ScenarioTerminalFailureRecord | null =
    failed && failure !== null
      ? {
          node_id: last.metadata.scenario_node,
          category: failure.category,
          stage: failure.stage,
          reason: failure.reason,
        }
      : null;
  return {
    scenario_id: last?.metadata.scenario_id ?? "",
    status: failed ? "error" : "completed",
    path: turns.map((row) => row.metadata.scenario_node ?? ""),
    turn_count: turns.length,
    history: turns.map(turnRecord),
    outcome_results: {},
    terminal_failure: terminal,
    replicate: last?.metadata.replicate ?? null,
  };
}

/**
 * The `scenario_results` records of a set of rows. Rows with a non-empty `scenario_id` that a summary lists
 * (by `result_id`) make that summary's record ({@link scenarioRecord}), in summary order; the others (an
 * export of the original, or a run killed between an execution's rows and its summary line) are grouped as
 * the original's sink groups them (spec 08 §6.3, §5.8.1): by the row's own combo key (scenario id, answering
 * and parsing canonical keys, replicate), groups in first-seen order after the summaries' records.
 * @example
 * scenarioRecordsFromRows([]); // []
 */
export function scenarioRecordsFromRows(
  rows: readonly VerificationResult[],
  summaries: readonly ScenarioExecutionSummary[] = [],
): ScenarioResultRecord[] {
  const scenarioRows = rows.filter(isScenarioRow);
  const byId = scenarioRowsById(scenarioRows);
  const claimed = new Set<VerificationResult>();
  const records = summaries.map((summary) => {
    const own: VerificationResult[] = [];
    for (const id of summary.result_ids) {
      const row = byId.get(id)?.find((candidate) => !claimed.has(candidate));
      if (row === undefined) continue;
      claimed.add(row);
      own.push(row);
    }
    return scenarioRecord(summary, own);
  });
  const groups = new Map<string, VerificationResult[]>();
  for (const row of scenarioRows) {
    if (claimed.has(row)) continue;
    const key = rowComboKey(row);
    const group = groups.get(key) ?? [];
    group.push(row);
    groups.set(key, group);
  }
  for (const group of groups.values()) records.push(recordFromRowsOnly(group));
  return records;
}
