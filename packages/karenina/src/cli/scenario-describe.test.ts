/**
 * The readable forms of edge conditions and outcome checks, including what a checkpoint cannot hold
 * (TypeScript functions given to the builder) and what the runtime does with unusual definitions.
 */
import { describe, expect, test } from "vitest";
import {
  allOf,
  anyOf,
  crossTurn,
  describeCheck,
  describeEdge,
  describeEdgeCondition,
  describeOutcome,
  describeOutcomeNode,
  describeScope,
  END,
  firstMatchIndex,
  firstTurnScope,
  lastTurnScope,
  Scenario,
  type ScenarioEdge,
  statusIs,
  turnAt,
  turnCountGte,
} from "../scenario/index.js";
import { createPrimitive } from "../templates/index.js";
import { scenarioMermaid } from "./scenario-mermaid.js";
import { scenarioText } from "./scenario-text.js";

const question = (text: string) => ({ question: text, raw_answer: "x" });

describe("TypeScript functions, which a checkpoint cannot hold, show as <callable>", () => {
  const definition = new Scenario("in-process", "", { onWarning: () => {} })
    .addNode("ask", { question: question("A?"), stateUpdate: (acc) => ({ ...acc, seen: true }) })
    .addNode("next", { question: question("B?") })
    .addEdge("ask", "next", { when: () => true, handover: () => [] })
    .addEdge("ask", END)
    .setEntry("ask")
    .addOutcomeCriterion({ name: "short", evaluate: () => true })
    .validate();
  const lines = scenarioText(definition).split("\n");

  test("a condition and a handover", () => {
    expect(lines).toContain("  ask ─[<callable>]→ next (handover: <callable>)");
    expect(lines).toContain("  ask ─[otherwise]→ END");
  });

  test("a state update and an evaluate", () => {
    expect(lines).toContain("      state update: <callable>");
    expect(lines).toContain("  short: <callable>");
  });

  test("the Mermaid edge label too", () => {
    expect(scenarioMermaid(definition)).toContain(
      '  n0 -->|"#lt;callable#gt; (handover: #lt;callable#gt;)"| n1',
    );
  });
});

describe("edge conditions", () => {
  const edge = (fields: Partial<ScenarioEdge>): ScenarioEdge => ({
    source: "a",
    target: "b",
    condition: null,
    condition_source: null,
    handover: null,
    ...fields,
  });
  const check = (field: string, expected: unknown, type = "ExactMatch", params = {}) => ({
    type: "state_check" as const,
    field,
    expected,
    verify_with: createPrimitive(type, params),
  });

  test("a Python source wins over a declarative condition on the same edge, as at run time", () => {
    const both = edge({
      condition: check("turn", 1, "NumericExact"),
      condition_source: "lambda st:\n  st.turn",
    });
    expect(describeEdgeCondition(both, [both])).toBe("python: lambda st: st.turn");
  });

  test("an empty list of checks passes", () => {
    const empty = edge({ condition: [] });
    expect(describeEdgeCondition(empty, [empty])).toBe("all of no checks (passes)");
  });

  test("an unknown handover string is shown as written; END is END", () => {
    const odd = edge({ target: END, handover: "teleport" });
    expect(describeEdge(odd, [odd])).toBe("a ─[always]→ END (handover: teleport)");
  });

  test("primitives with parameters show the ones that differ from their defaults", () => {
    expect(describeCheck("items", createPrimitive("SetContainment", { mode: "superset" }), [1, 2])).toBe(
      "items SetContainment(mode='superset') [1, 2]",
    );
    expect(describeCheck("score", createPrimitive("NumericTolerance", { tolerance: 1 }), 5)).toBe(
      "score NumericTolerance(tolerance=1.0, mode='relative') 5",
    );
    expect(describeCheck("city", createPrimitive("ExactMatch", { normalize: [] }), "Paris")).toBe(
      "city ExactMatch(normalize=[]) 'Paris'",
    );
    expect(describeCheck("flag", createPrimitive("BooleanMatch"), null)).toBe("flag == None");
  });

  test("NumericRange reads as its bounds", () => {
    const range = (params: Record<string, unknown>) =>
      describeCheck("n", createPrimitive("NumericRange", params), null);
    expect(range({ min: 1, max: 2, exclusive_max: true })).toBe("1.0 <= n < 2.0");
    expect(range({ min: 1, exclusive_min: true })).toBe("n > 1.0");
    expect(range({ max: 0.5 })).toBe("n <= 0.5");
    expect(range({})).toBe("n NumericRange (no bounds)");
  });
});

describe("outcome checks", () => {
  test("scopes", () => {
    expect(describeScope(turnAt(-1))).toBe("turn[-1]");
    expect(describeScope({ type: "any_turn", node_id: null })).toBe("any turn");
    expect(describeScope({ type: "all_turns", node_id: [] })).toBe("every turn at no node");
  });

  test("a cross-turn comparison reads target OP source", () => {
    const node = crossTurn({
      source: firstTurnScope(),
      sourceField: "parsed.n",
      target: lastTurnScope(),
      targetField: "parsed.n",
      comparison: "gt",
    });
    expect(describeOutcomeNode(node)).toBe("last turn parsed.n > first turn parsed.n");
  });

  test("nested compositions, empty ones included", () => {
    const node = anyOf(allOf(statusIs("completed"), turnCountGte(2)), allOf());
    expect(describeOutcomeNode(node)).toBe(
      "any of (all of (result status ExactMatch 'completed'; result turn_count >= 2.0); all of ())",
    );
  });

  test("first_match_index with a node list and a verdict", () => {
    expect(describeOutcomeNode(firstMatchIndex({ node: ["a", "b"], verifyResult: true }))).toBe(
      "index of the first turn at one of a, b with verify_result == True (-1 if none)",
    );
  });

  test("a declarative check wins over a source; a criterion with neither records nothing", () => {
    expect(
      describeOutcome({
        name: "x",
        description: "",
        check: statusIs("error"),
        evaluate_source: "lambda r: 1",
      }),
    ).toBe("result status ExactMatch 'error'");
    expect(describeOutcome({ name: "x", description: "", check: null, evaluate_source: null })).toBe(
      "nothing to evaluate (no result is recorded)",
    );
  });
});
