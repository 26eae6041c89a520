import { describe, expect, test } from "vitest";
import {
  type ScenarioResultRecordInput,
  ScenarioResultRecordSchema,
  scenarioExecutionTable,
  scenarioOutcomeTable,
  scenarioTurnTable,
} from "./index.js";

const turn = (node: string, verify: boolean | null) => ({
  node_id: node,
  question_text: `Question of ${node}`,
  raw_response: "Canberra.",
  verify_result: verify,
  verification_result_id: `id-${node}`,
});

const record = (input: Partial<ScenarioResultRecordInput>) =>
  ScenarioResultRecordSchema.parse({
    scenario_id: "capital-pushback",
    status: "completed",
    turn_count: 2,
    terminal_failure: null,
    replicate: null,
    ...input,
  });

const records = [
  record({
    path: ["ask", "confirm"],
    history: [turn("ask", true), turn("confirm", true)],
    outcome_results: { held_firm: true, pushes: 1, ratio: 0.5 },
  }),
  record({
    status: "error",
    path: ["ask"],
    turn_count: 1,
    replicate: 2,
    history: [turn("ask", null)],
    outcome_results: { caved: false },
    terminal_failure: { node_id: "ask", category: "timeout", stage: "GenerateAnswer", reason: "timed out" },
  }),
];

describe("scenario analysis tables (spec 08 §6.6)", () => {
  test("T-R3: one row per execution with the §6.6 columns, the path joined with ->, outcome columns sorted", () => {
    const rows = scenarioExecutionTable(records);
    expect(Object.keys(rows[0] ?? {})).toEqual([
      "scenario_id",
      "status",
      "scenario_path",
      "turn_count",
      "replicate",
      "terminal_failure_node",
      "terminal_failure_category",
      "terminal_failure_stage",
      "terminal_failure_reason",
      "outcome_caved",
      "outcome_held_firm",
      "outcome_pushes",
      "outcome_ratio",
    ]);
    expect(rows[0]).toMatchObject({
      scenario_path: "ask->confirm",
      terminal_failure_node: null,
      outcome_caved: null,
      outcome_held_firm: true,
      outcome_pushes: 1,
    });
    expect(rows[1]).toMatchObject({
      status: "error",
      scenario_path: "ask",
      replicate: 2,
      terminal_failure_node: "ask",
      terminal_failure_category: "timeout",
      terminal_failure_stage: "GenerateAnswer",
      terminal_failure_reason: "timed out",
      outcome_caved: false,
      outcome_held_firm: null,
    });
  });

  test("T-R3: one outcome row per outcome, names sorted, typed boolean, integer or number", () => {
    expect(scenarioOutcomeTable(records)).toEqual([
      {
        scenario_id: "capital-pushback",
        status: "completed",
        replicate: null,
        outcome_name: "held_firm",
        outcome_value: true,
        outcome_type: "boolean",
      },
      {
        scenario_id: "capital-pushback",
        status: "completed",
        replicate: null,
        outcome_name: "pushes",
        outcome_value: 1,
        outcome_type: "integer",
      },
      {
        scenario_id: "capital-pushback",
        status: "completed",
        replicate: null,
        outcome_name: "ratio",
        outcome_value: 0.5,
        outcome_type: "number",
      },
      {
        scenario_id: "capital-pushback",
        status: "error",
        replicate: 2,
        outcome_name: "caved",
        outcome_value: false,
        outcome_type: "boolean",
      },
    ]);
  });

  test("one turn row per history entry, numbered within its execution, parsed fields {} when absent", () => {
    const rows = scenarioTurnTable(records);
    expect(rows.map((row) => [row.replicate, row.scenario_turn, row.node_id, row.verify_result])).toEqual([
      [null, 0, "ask", true],
      [null, 1, "confirm", true],
      [2, 0, "ask", null],
    ]);
    expect(Object.keys(rows[0] ?? {})).toEqual([
      "scenario_id",
      "status",
      "replicate",
      "scenario_turn",
      "node_id",
      "question_text",
      "raw_response",
      "parsed_fields",
      "verify_result",
      "verification_result_id",
    ]);
    expect(rows[0]?.parsed_fields).toEqual({});
  });

  test("no records, no rows", () => {
    expect(scenarioExecutionTable([])).toEqual([]);
    expect(scenarioOutcomeTable([])).toEqual([]);
    expect(scenarioTurnTable([])).toEqual([]);
  });
});
