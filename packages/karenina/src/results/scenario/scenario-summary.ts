import type { ScenarioOutcomeValue, ScenarioResultRecord } from "./scenario-result-record.js";

/** A boolean outcome over the executions that have it: how many were true, and the rate. */
export interface BooleanOutcomeSummary {
  kind: "boolean";
  /** Executions with a value for this outcome. */
  count: number;
  passed: number;
  /** passed / count (0–1); null when no execution has a value. */
  pass_rate: number | null;
}

/** A numeric outcome (aggregations, callables) over the executions that have it. */
export interface NumberOutcomeSummary {
  kind: "number";
  count: number;
  mean: number;
  min: number;
  max: number;
}

/** An outcome that is a boolean in some executions and a number in others: counted only. */
export interface MixedOutcomeSummary {
  kind: "mixed";
  count: number;
}

export type ScenarioOutcomeSummary = BooleanOutcomeSummary | NumberOutcomeSummary | MixedOutcomeSummary;

/** What the executions of one scenario came to. */
export interface ScenarioExecutionsSummary {
  scenario_id: string;
  executions: number;
  /** Executions per status; only statuses that occur. */
  statuses: Record<string, number>;
  mean_turns: number;
  /** Per outcome name (sorted). */
  outcomes: Record<string, ScenarioOutcomeSummary>;
}

function outcomeSummary(values: readonly ScenarioOutcomeValue[]): ScenarioOutcomeSummary {
  const booleans = values.filter((value): value is boolean => typeof value === "boolean");
  if (booleans.length === values.length) {
    const passed = booleans.filter(Boolean).length;
    return {
      kind: "boolean",
      count: values.length,
      passed,
      pass_rate: values.length === 0 ? null : passed / values.length,
    };
  }
  const numbers = values.filter((value): value is number => typeof value === "number");
  if (numbers.length < values.length) return { kind: "mixed", count: values.length };
  return {
    kind: "number",
    count: numbers.length,
    mean: numbers.reduce((sum, value) => sum + value, 0) / numbers.length,
    min: Math.min(...numbers),
    max: Math.max(...numbers),
  };
}

function summaryOf(scenarioId: string, records: readonly ScenarioResultRecord[]): ScenarioExecutionsSummary {
  const statuses: Record<string, number> = {};
  for (const record of records) statuses[record.status] = (statuses[record.status] ?? 0) + 1;
  const names = [...new Set(records.flatMap((record) => Object.keys(record.outcome_results)))].sort();
  const outcomes: Record<string, ScenarioOutcomeSummary> = {};
  for (const name of names) {
    const values = records.flatMap((record) => {
      const value = record.outcome_results[name];
      return value === undefined ? [] : [value];
    });
    outcomes[name] = outcomeSummary(values);
  }
  const turns = records.reduce((sum, record) => sum + record.turn_count, 0);
  return {
    scenario_id: scenarioId,
    executions: records.length,
    statuses,
    mean_turns: turns / records.length,
    outcomes,
  };
}

/**
 * Per scenario (sorted by id): how many executions, how many per status, the mean turn count, and per outcome
 * the pass count and rate of a boolean outcome or the mean (min, max) of a numeric one. The original has no
 * such aggregation (spec 08 §6.7); it reads records and changes nothing.
 * @example
 * const record = (held: boolean) => ScenarioResultRecordSchema.parse({ scenario_id: "s", status: "completed",
 *   turn_count: 2, outcome_results: { held }, terminal_failure: null, replicate: null });
 * const [summary] = summarizeScenarios([record(true), record(false)]);
 * summary?.outcomes.held; // { kind: "boolean", count: 2, passed: 1, pass_rate: 0.5 }
 */
export function summarizeScenarios(records: readonly ScenarioResultRecord[]): ScenarioExecutionsSummary[] {
  const groups = new Map<string, ScenarioResultRecord[]>();
  for (const record of records) {
    const group = groups.get(record.scenario_id) ?? [];
    group.push(record);
    groups.set(record.scenario_id, group);
  }
  return [...groups.keys()].sort().map((id) => summaryOf(id, groups.get(id) ?? []));
}
