import { describe, expect, it } from "vitest";
import { Question } from "../model/index.js";
import { OutcomeNodeSchema, ScenarioDefinitionSchema, scenarioWarnings } from "./index.js";

describe("ScenarioDefinitionSchema (direct construction, spec 08 §2.2)", () => {
  it("fills defaults and builds questions and primitives from their JSON", () => {
    const definition = ScenarioDefinitionSchema.parse({
      name: "direct",
      nodes: { a: { node_id: "a", question: { question: "Q?", raw_answer: "A" } } },
      edges: [
        {
          source: "a",
          target: "__end__",
          condition: { field: "turn", expected: 1, verify_with: { type: "NumericExact" } },
        },
        { source: "a", target: "__end__" },
      ],
      entry_node: "a",
      outcome_criteria: [{ name: "o", check: { type: "AllOf", conditions: [{ type: "CountTurns" }] } }],
    });
    expect(definition.description).toBe("");
    expect(definition.metadata).toEqual({});
    expect(definition.nodes.a?.question).toBeInstanceOf(Question);
    expect(definition.nodes.a).toMatchObject({
      model_override: null,
      tool_filter: null,
      agent_identity: null,
      metadata: {},
    });
    expect(definition.edges[0]?.condition).toMatchObject({ type: "state_check", field: "turn" });
    expect(definition.outcome_criteria[0]?.check).toEqual({
      type: "all_of",
      conditions: [{ type: "count_turns", node_id: null, verify_result: null }],
    });
    expect(scenarioWarnings(definition)).toEqual([]);
  });

  it("reports problems with their path", () => {
    const parsed = ScenarioDefinitionSchema.safeParse({
      name: "x",
      nodes: { b: { node_id: "b" } },
      edges: [],
      entry_node: "b",
    });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path).toEqual(["nodes", "b", "question"]);
  });

  it("refuses an at_least_n without n and an unknown comparison", () => {
    expect(OutcomeNodeSchema.safeParse({ type: "AtLeastN", conditions: [] }).success).toBe(false);
    const cross = {
      type: "cross_turn_check",
      source_turn: { type: "LastTurn" },
      source_field: "a",
      target_turn: { type: "first_turn" },
      target_field: "b",
    };
    expect(OutcomeNodeSchema.safeParse({ ...cross, comparison: "like" }).success).toBe(false);
    expect(OutcomeNodeSchema.parse({ ...cross, comparison: "neq" })).toMatchObject({
      source_turn: { type: "last_turn" },
      normalize: [],
    });
  });
});
