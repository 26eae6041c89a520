import {
  modelComboKey,
  type ScenarioOutcomeSummary,
  type ScenarioResultRecord,
  scenarioRecordsFromRows,
  summarizeScenarios,
  type VerificationResult,
} from "../results/index.js";
import type { Palette } from "./colour.js";
import { type Cell, table, toned } from "./text-table.js";

/** Executions listed one by one; the rest are counted (`--json` has them all). */
export const MAX_LISTED_EXECUTIONS = 50;

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? "" : "s"}`;
const mean = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(2));
const STATUS_TONE = { completed: "pass", limit_reached: "warn", error: "fail", timeout: "fail" } as const;

/**
 * The scenario executions of results: the file's own records when it has them (a JSON export's
 * `scenario_results`, or those a run log's execution lines give), else rebuilt from the turn rows as the
 * original groups them (spec 08 §6.3). Empty for results without scenario rows.
 */
export function scenarioRecordsOf(
  rows: readonly VerificationResult[],
  given: readonly ScenarioResultRecord[] | null | undefined,
): ScenarioResultRecord[] {
  if (given !== null && given !== undefined && given.length > 0) return [...given];
  return scenarioRecordsFromRows(rows);
}

function outcomeText(name: string, outcome: ScenarioOutcomeSummary): string {
  if (outcome.kind === "boolean") {
    const rate = outcome.pass_rate === null ? "-" : `${(outcome.pass_rate * 100).toFixed(1)}%`;
    return `${name} ${outcome.passed}/${outcome.count} (${rate})`;
  }
  if (outcome.kind === "number") return `${name} mean ${mean(outcome.mean)}`;
  return `${name} ${plural(outcome.count, "value")}`;
}

function scenarioTable(records: readonly ScenarioResultRecord[], palette: Palette): string[] {
  const rows = summarizeScenarios(records).map((summary): Cell[] => [
    summary.scenario_id,
    String(summary.executions),
    Object.entries(summary.statuses)
      .map(([status, count]) => `${status} ${count}`)
      .join(", "),
    mean(summary.mean_turns),
    Object.entries(summary.outcomes)
      .map(([name, outcome]) => outcomeText(name, outcome))
      .join(", "),
  ]);
  return table(
    [
      { header: "scenario" },
      { header: "executions", right: true },
      { header: "statuses" },
      { header: "mean turns", right: true },
      { header: "outcomes (true/executions with a value, or mean)" },
    ],
    rows,
    palette,
  );
}

function executionTable(
  records: readonly ScenarioResultRecord[],
  rows: readonly VerificationResult[],
  palette: Palette,
): string[] {
  const byId = new Map(rows.map((row) => [row.metadata.result_id, row]));
  const pairOf = (record: ScenarioResultRecord) => {
    const id = record.history[0]?.verification_result_id;
    const row = id === null || id === undefined ? undefined : byId.get(id);
    return row === undefined ? "-" : modelComboKey(row);
  };
  const cells = records.slice(0, MAX_LISTED_EXECUTIONS).map((record): Cell[] => {
    const failure = record.terminal_failure;
    return [
      record.scenario_id,
      pairOf(record),
      record.replicate === null ? "-" : String(record.replicate),
      toned(record.status, STATUS_TONE[record.status]),
      String(record.turn_count),
      record.path.join(" → "),
      Object.keys(record.outcome_results)
        .sort()
        .map((name) => `${name} ${record.outcome_results[name]}`)
        .join(", "),
      failure === null ? "" : toned(`${failure.category ?? "?"} at ${failure.node_id ?? "?"}`, "fail"),
    ];
  });
  const lines = table(
    [
      { header: "scenario" },
      { header: "model pair" },
      { header: "replicate", right: true },
      { header: "status" },
      { header: "turns", right: true },
      { header: "path" },
      { header: "outcomes" },
      { header: "failure" },
    ],
    cells,
    palette,
  );
  const more = records.length - MAX_LISTED_EXECUTIONS;
  if (more > 0) lines.push(`  … ${plural(more, "more execution")} (--json lists them all)`);
  return lines;
}

/**
 * The scenario section of `karenina results`: per scenario its executions, statuses, mean turns and outcome
 * pass rates; then per execution its models, replicate, status, turns, path (`ask → push → audit`), outcomes
 * and terminal failure. Nothing for results without scenarios.
 */
export function scenarioLines(
  records: readonly ScenarioResultRecord[],
  rows: readonly VerificationResult[],
  palette: Palette,
): string[] {
  if (records.length === 0) return [];
  const scenarios = new Set(records.map((record) => record.scenario_id)).size;
  return [
    "",
    palette.paint(
      `Scenarios (${plural(records.length, "execution")} of ${plural(scenarios, "scenario")}; each turn is a result above)`,
      "heading",
    ),
    ...scenarioTable(records, palette),
    "",
    palette.paint("Scenario executions", "heading"),
    ...executionTable(records, rows, palette),
  ];
}
