import { describe, expect, test } from "vitest";
import { type ScenarioResultRecordInput, ScenarioResultRecordSchema, summarizeScenarios } from "./index.js";

const record = (input: Partial<ScenarioResultRecordInput>) =>
  ScenarioResultRecordSchema.parse({
    scenario_id: "capital-pushback",
    status: "completed",
    turn_count: 2,
    terminal_failure: null,
    replicate: null,
    ...input,
  });

describe("summarizeScenarios", () => {
  test("per scenario: executions, statuses, mean turns, boolean pass rates and numeric means", () => {
    const records = [
      record({ turn_count: 2, outcome_results: { held_firm: true, pushes: 1 } }),
      record({ turn_count: 4, outcome_results: { held_firm: false, pushes: 3 } }),
      record({ status: "limit_reached", turn_count: 6, outcome_results: { held_firm: true, pushes: 5 } }),
      record({ status: "error", turn_count: 1, outcome_results: {} }),
      record({ scenario_id: "a-handover", outcome_results: { mixed: true } }),
      record({ scenario_id: "a-handover", outcome_results: { mixed: 2 } }),
    ];
    const [handover, pushback] = summarizeScenarios(records);
    expect(pushback).toEqual({
      scenario_id: "capital-pushback",
      executions: 4,
      statuses: { completed: 2, limit_reached: 1, error: 1 },
      mean_turns: 3.25,
      outcomes: {
        held_firm: { kind: "boolean", count: 3, passed: 2, pass_rate: 2 / 3 },
        pushes: { kind: "number", count: 3, mean: 3, min: 1, max: 5 },
      },
    });
    expect(handover?.scenario_id).toBe("a-handover");
    expect(handover?.outcomes.mixed).toEqual({ kind: "mixed", count: 2 });
  });

  test("summarizing changes nothing in the records", () => {
    const records = [record({ outcome_results: { held_firm: true } })];
    const before = JSON.stringify(records);
    summarizeScenarios(records);
    expect(JSON.stringify(records)).toBe(before);
    expect(summarizeScenarios([])).toEqual([]);
  });
});
