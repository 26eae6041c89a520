import {
  isScenarioExecutionLine,
  isVerificationResult,
  type ScenarioExecutionSummary,
  type VerificationResult,
} from "../../results/index.js";
import { readRunLog } from "../run-log/index.js";

/** What a scenario run log holds: turn rows, and one summary line per finished execution. */
export interface ScenarioRunLog {
  readonly rows: VerificationResult[];
  readonly executions: ScenarioExecutionSummary[];
}

/** The turn rows and execution summaries of a scenario run log, in file order. */
export async function readScenarioRunLog(path: string): Promise<ScenarioRunLog> {
  const log = await readRunLog(path);
  const rows: VerificationResult[] = [];
  const executions: ScenarioExecutionSummary[] = [];
  for (const value of log.results) {
    if (isScenarioExecutionLine(value)) executions.push(value.scenario_execution);
    else if (isVerificationResult(value)) rows.push(value);
  }
  return { rows, executions };
}

/**
 * The executions a log finished: summaries whose every row is in it (the last summary of a combo wins), and
 * those rows in summary order. Rows written without their summary line (a crash between them) belong to an
 * execution that runs again.
 */
export function finishedExecutions(log: ScenarioRunLog): ScenarioRunLog {
  const rowsById = new Map(log.rows.map((row) => [row.metadata.result_id, row]));
  const byCombo = new Map(log.executions.map((summary) => [summary.combo_key, summary]));
  const executions = [...byCombo.values()].filter((summary) =>
    summary.result_ids.every((id) => rowsById.has(id)),
  );
  const rows = executions.flatMap((summary) =>
    summary.result_ids.map((id) => rowsById.get(id) as VerificationResult),
  );
  return { rows, executions };
}
