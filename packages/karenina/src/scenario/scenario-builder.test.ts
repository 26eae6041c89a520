import { describe, expect, it } from "vitest";
import { Question } from "../model/index.js";
import { createPrimitive } from "../templates/index.js";
import { scenarioErrorOf } from "./__fixtures__/scenario-error-of.js";
import {
  allOf,
  anyOf,
  atLeastN,
  checkScenarioGraph,
  countTurns,
  END,
  lastTurn,
  pythonExpressionProblem,
  Scenario,
  type StateCheck,
  statusIs,
  turnCountEq,
  turnCountGte,
} from "./index.js";

const question = (text = "What is the capital of Australia?") => ({ question: text, raw_answer: "Canberra" });

/** A builder that keeps warnings to itself instead of printing them. */
const scenario = (name = "s") => new Scenario(name, "", { onWarning: () => {} });

/** The condition of the only edge of a one-edge builder, as plain JSON. */
function conditionOf(when: unknown): unknown {
  const s = scenario().addNode("a", { question: question() });
  s.addEdge("a", END, { when: when as never })
    .addEdge("a", END)
    .setEntry("a");
  const { condition } = s.validate().edges[0] as { condition: StateCheck | StateCheck[] };
  const plain = (check: StateCheck) => ({
    field: check.field,
    expected: check.expected,
    verify_with: check.verify_with.toJSON(),
  });
  return Array.isArray(condition) ? condition.map(plain) : plain(condition);
}

const thrown = scenarioErrorOf;

describe("Scenario builder: nodes (spec 08 §8.1)", () => {
  it("T-B1 refuses a duplicate node id", () => {
    const s = scenario().addNode("q1", { question: question() });
    expect(thrown(() => s.addNode("q1", { question: question() })).message).toContain(
      "Node 'q1' already exists",
    );
  });

  it("T-B2 refuses the reserved agent identity __user__", () => {
    expect(
      thrown(() => scenario().addNode("q1", { question: question(), agentIdentity: "__user__" })).message,
    ).toContain("__user__");
  });

  it("refuses node ids that edges or checkpoints cannot hold (__end__: quirk Q20 fixed; __proto__)", () => {
    expect(thrown(() => scenario().addNode(END, { question: question() })).message).toContain("reserved");
    expect(thrown(() => scenario().addNode("__proto__", { question: question() })).message).toContain(
      "__proto__",
    );
  });

  it("T-B3 deep-copies the question", () => {
    const original = new Question({
      ...question(),
      keywords: ["geo"],
      custom_metadata: { nested: { x: 1 } },
    });
    const input = { ...question(), keywords: ["geo"] };
    const s = scenario().addNode("a", { question: original }).addNode("b", { question: input }).setEntry("a");
    s.addEdge("a", "b");
    original.keywords.push("mutated");
    (original.custom_metadata?.nested as { x: number }).x = 2;
    input.keywords.push("mutated");
    const { nodes } = s.validate();
    expect(nodes.a?.question.keywords).toEqual(["geo"]);
    expect(nodes.a?.question.custom_metadata).toEqual({ nested: { x: 1 } });
    expect(nodes.b?.question.keywords).toEqual(["geo"]);
  });

  it("T-B4 stores a state update source verbatim; refuses one that cannot compile", () => {
    const source = "lambda acc, p: {**acc, 'x': 1}";
    const s = scenario().addNode("a", { question: question(), stateUpdate: source }).setEntry("a");
    expect(s.validate().nodes.a?.state_update_source).toBe(source);
    expect(
      thrown(() => scenario().addNode("a", { question: question(), stateUpdate: "lambda acc, p: (" }))
        .message,
    ).toBe("Cannot compile callable from source string: lambda acc, p: (");
  });

  it("refuses a def block as a state update (quirk Q10 fixed)", () => {
    const def = "def update(acc, p):\n    return acc";
    expect(
      thrown(() => scenario().addNode("a", { question: question(), stateUpdate: def })).message,
    ).toContain("Cannot compile callable from source string");
  });

  it("keeps a TypeScript state update in memory and warns that it will not be saved", () => {
    const warnings: string[] = [];
    const update = (acc: Record<string, unknown>) => ({ ...acc, n: 1 });
    const s = new Scenario("s", "", { onWarning: (w) => warnings.push(w) });
    s.addNode("a", { question: question(), stateUpdate: update }).setEntry("a");
    const node = s.validate().nodes.a;
    expect(node?.state_update).toBe(update);
    expect(node?.state_update_source).toBeNull();
    expect(warnings).toEqual([expect.stringContaining("will not be serialized")]);
    expect(s.warnings).toEqual(warnings);
  });

  it("validates model overrides and tool filters", () => {
    const s = scenario().addNode("a", {
      question: question(),
      modelOverride: {
        parsing_model: { id: "judge-b", model_provider: "openai", model_name: "gpt-4.1", bogus: 1 } as never,
      },
      toolFilter: { remove: [{ server: "web" }] },
    });
    const node = s.setEntry("a").validate().nodes.a;
    expect(node?.model_override?.answering_model).toBeNull();
    expect(node?.model_override?.parsing_model?.id).toBe("judge-b");
    expect(node?.tool_filter).toEqual({ remove: [{ server: "web", tool: null }] });
    expect(
      thrown(() => scenario().addNode("b", { question: question(), toolFilter: { remove: "web" } as never }))
        .message,
    ).toContain("invalid tool_filter");
  });
});

describe("Scenario builder: edges and `when` (spec 08 §2.8, §8.1)", () => {
  it("T-B5 a boolean shorthand is a BooleanMatch", () => {
    expect(conditionOf({ verify_result: true })).toEqual({
      field: "verify_result",
      expected: true,
      verify_with: { type: "BooleanMatch" },
    });
  });

  it("T-B6 strings, numbers, arrays and null pick ExactMatch, NumericExact, SetContainment, ExactMatch", () => {
    expect(conditionOf({ "parsed.drug": "venetoclax" })).toEqual({
      field: "parsed.drug",
      expected: "venetoclax",
      verify_with: { normalize: ["lowercase", "strip"], type: "ExactMatch" },
    });
    expect(conditionOf({ turn: 5 })).toMatchObject({ expected: 5, verify_with: { type: "NumericExact" } });
    expect(conditionOf({ items: [1, 2] })).toMatchObject({
      expected: [1, 2],
      verify_with: { mode: "exact", min_overlap: null, type: "SetContainment" },
    });
    expect(conditionOf({ x: null })).toMatchObject({ expected: null, verify_with: { type: "ExactMatch" } });
  });

  it("T-B7 operator maps become NumericRange / NumericExact", () => {
    const range = (params: object) => ({
      min: null,
      max: null,
      exclusive_min: false,
      exclusive_max: false,
      ...params,
      type: "NumericRange",
    });
    expect(conditionOf({ "node_visits.retry": { gte: 3 } })).toEqual({
      field: "node_visits.retry",
      expected: null,
      verify_with: range({ min: 3 }),
    });
    expect(conditionOf({ a: { gt: 3 } })).toMatchObject({
      verify_with: range({ min: 3, exclusive_min: true }),
    });
    expect(conditionOf({ a: { lte: 3 } })).toMatchObject({ verify_with: range({ max: 3 }) });
    expect(conditionOf({ a: { lt: 3 } })).toMatchObject({
      verify_with: range({ max: 3, exclusive_max: true }),
    });
    expect(conditionOf({ a: { eq: 5 } })).toEqual({
      field: "a",
      expected: 5,
      verify_with: { type: "NumericExact" },
    });
  });

  it("T-B8 shorthand errors name the keys and the supported operators", () => {
    expect(thrown(() => conditionOf({ a: 1, b: 2 })).message).toBe(
      "State check dict must have exactly one key, got 2: ['a', 'b']",
    );
    expect(thrown(() => conditionOf({ a: { lte: 2, gte: 1 } })).message).toBe(
      "Operator dict must have exactly one key, got 2: ['gte', 'lte']",
    );
    expect(thrown(() => conditionOf({ a: { between: 1 } })).message).toBe(
      "Unknown operator 'between'. Supported: ['eq', 'gt', 'gte', 'lt', 'lte']",
    );
  });

  it("T-B9 a list of shorthands is an AND list", () => {
    expect(conditionOf([{ verify_result: true }, { turn: 2 }])).toEqual([
      { field: "verify_result", expected: true, verify_with: { type: "BooleanMatch" } },
      { field: "turn", expected: 2, verify_with: { type: "NumericExact" } },
    ]);
  });

  it("a StateCheck is used as it is; a string becomes the condition source", () => {
    const check: StateCheck = {
      type: "state_check",
      field: "turn",
      expected: 1,
      verify_with: createPrimitive("NumericExact"),
    };
    expect(conditionOf(check)).toEqual({ field: "turn", expected: 1, verify_with: { type: "NumericExact" } });
    const s = scenario().addNode("a", { question: question() }).setEntry("a");
    s.addEdge("a", END, { when: "lambda st: st.turn > 0" }).addEdge("a", END);
    expect(s.validate().edges[0]).toMatchObject({
      condition: null,
      condition_source: "lambda st: st.turn > 0",
    });
  });

  it("T-B10 an unsupported `when` names its Python type", () => {
    const s = scenario();
    expect(thrown(() => s.addEdge("a", "b", { when: 5 as never })).message).toBe(
      "Unsupported 'when' type: int",
    );
    expect(thrown(() => s.addEdge("a", "b", { when: 2.5 as never })).message).toBe(
      "Unsupported 'when' type: float",
    );
    expect(thrown(() => s.addEdge("a", "b", { when: true as never })).message).toBe(
      "Unsupported 'when' type: bool",
    );
  });

  it("T-B11 handover: unknown strategy refused, the three stored, a callable stored with a warning", () => {
    const s = scenario();
    expect(thrown(() => s.addEdge("a", "b", { handover: "teleport" })).message).toBe(
      "Unknown handover strategy 'teleport'. Known strategies: ['transcript_append', 'transcript_materialize', 'transcript_prepend']",
    );
    expect(thrown(() => s.addEdge("a", "b", { handover: 3 as never })).message).toBe(
      "Unsupported handover type: int",
    );
    const warnings: string[] = [];
    const built = new Scenario("h", "", { onWarning: (w) => warnings.push(w) }).addNode("a", {
      question: question(),
    });
    for (const strategy of ["transcript_prepend", "transcript_append", "transcript_materialize"]) {
      built.addEdge("a", END, { handover: strategy });
    }
    const handover = () => [];
    built.addEdge("a", END, { handover }).setEntry("a");
    const edges = built.validate().edges;
    expect(edges.map((e) => e.handover)).toEqual([
      "transcript_prepend",
      "transcript_append",
      "transcript_materialize",
      null,
    ]);
    expect(edges[3]?.handover_callable).toBe(handover);
    expect(warnings[0]).toContain("will not be serialized");
  });

  it("T-B12 a condition and a handover on one edge are both stored", () => {
    const s = scenario()
      .addNode("a", { question: question() })
      .addNode("b", { question: question("B?") });
    s.addEdge("a", "b", { when: { verify_result: true }, handover: "transcript_append" })
      .addEdge("a", END)
      .setEntry("a");
    const [edge] = s.validate().edges;
    expect(edge?.handover).toBe("transcript_append");
    expect((edge?.condition as StateCheck | undefined)?.field).toBe("verify_result");
  });
});

describe("Scenario builder: validation (spec 08 §2.8, §8.1)", () => {
  const twoNodes = () =>
    scenario()
      .addNode("q1", { question: question() })
      .addNode("q2", { question: question("Q2?") });

  it("T-B13 setEntry refuses an unknown node", () => {
    expect(thrown(() => scenario().setEntry("nope")).message).toBe("'nope' is not a known node");
  });

  it("T-B14 validate needs a known entry", () => {
    expect(thrown(() => twoNodes().validate()).message).toMatch(/entry/);
    const { nodes } = twoNodes().addEdge("q1", "q2").setEntry("q1").validate();
    const error = thrown(() => checkScenarioGraph({ nodes, edges: [], entry_node: "nope" }));
    expect(error.message).toMatch(/entry.*not.*node/i);
    expect(error.message).toBe("Entry node 'nope' is not a known node. Known nodes: ['q1', 'q2']");
  });

  it("T-B15 edge ends must be known nodes (a target may be END)", () => {
    expect(
      thrown(() => twoNodes().addEdge("ghost", "q2").addEdge("q1", "q2").setEntry("q1").validate()).message,
    ).toBe("Edge source 'ghost' is not a known node. Known nodes: ['q1', 'q2']");
    expect(thrown(() => twoNodes().addEdge("q1", "ghost").setEntry("q1").validate()).message).toBe(
      "Edge target 'ghost' is not a known node or END. Known nodes: ['q1', 'q2']",
    );
  });

  it("T-B16 names the orphans", () => {
    const s = twoNodes()
      .addNode("orphan", { question: question("O?") })
      .addEdge("q1", "q2")
      .addEdge("q2", END)
      .setEntry("q1");
    expect(thrown(() => s.validate()).message).toBe("Orphan nodes not reachable from entry 'q1': ['orphan']");
  });

  it("T-B17 conditional edges need an unconditional fallback", () => {
    const s = twoNodes()
      .addEdge("q1", "q2", { when: { verify_result: true } })
      .setEntry("q1");
    const message = thrown(() => s.validate()).message;
    expect(message).toContain("Node 'q1' has conditional edges but no unconditional fallback");
    expect(message).toContain("when=None");
  });

  it("T-B18 a node without edges is an implicit terminal", () => {
    const definition = twoNodes().addEdge("q1", "q2").setEntry("q1").validate();
    expect(Object.keys(definition.nodes)).toEqual(["q1", "q2"]);
    expect(definition).toMatchObject({
      name: "s",
      description: "",
      entry_node: "q1",
      metadata: {},
      outcome_criteria: [],
    });
  });

  it("T-B19 several unconditional edges only warn, naming the targets", () => {
    const warnings: string[] = [];
    const s = new Scenario("w", "", { onWarning: (w) => warnings.push(w) }).addNode("a", {
      question: question(),
    });
    s.addNode("b", { question: question("B?") })
      .addEdge("a", END)
      .addEdge("a", "b")
      .setEntry("a")
      .validate();
    expect(warnings).toEqual([
      "Node 'a' has 2 unconditional edges (targets: ['__end__', 'b']). Only the first will be used; the others are unreachable.",
    ]);
  });

  it("the definition is a copy: later builder calls do not change it", () => {
    const s = twoNodes().addEdge("q1", "q2").setEntry("q1");
    const definition = s.validate();
    s.addNode("q3", { question: question("Q3?") }).addEdge("q2", "q3");
    expect(Object.keys(definition.nodes)).toEqual(["q1", "q2"]);
    expect(definition.edges).toHaveLength(1);
  });
});

describe("outcome helpers (spec 08 §2.9, §8.1)", () => {
  it("T-B20 lastTurn infers primitives; several fields make an all_of in key order", () => {
    const single = lastTurn({ verify_result: true });
    expect(single).toMatchObject({
      type: "turn_check",
      scope: { type: "last_turn" },
      field: "verify_result",
      expected: true,
    });
    expect(single.type === "turn_check" && single.verify_with.type).toBe("BooleanMatch");
    const several = lastTurn({ a: 1, b: "x" });
    expect(several.type).toBe("all_of");
    const types =
      several.type === "all_of"
        ? several.conditions.map((c) => c.type === "turn_check" && c.verify_with.type)
        : [];
    expect(types).toEqual(["NumericExact", "ExactMatch"]);
    const list = lastTurn({ tags: ["a"] });
    expect(list.type === "turn_check" && list.verify_with.type).toBe("ExactMatch");
  });

  it("T-B21 statusIs, turnCountGte, turnCountEq", () => {
    const status = statusIs("completed");
    expect({ ...status, verify_with: status.verify_with.toJSON() }).toEqual({
      type: "result_check",
      field: "status",
      expected: "completed",
      verify_with: { normalize: ["lowercase", "strip"], type: "ExactMatch" },
    });
    const gte = turnCountGte(3);
    expect({ ...gte, verify_with: gte.verify_with.toJSON() }).toEqual({
      type: "result_check",
      field: "turn_count",
      expected: null,
      verify_with: { min: 3, max: null, exclusive_min: false, exclusive_max: false, type: "NumericRange" },
    });
    const eq = turnCountEq(2);
    expect([eq.expected, eq.verify_with.type]).toEqual([2, "NumericExact"]);
  });

  it("refuses a helper with nothing to check (it would always pass)", () => {
    expect(thrown(() => lastTurn({})).message).toContain("at least one field");
  });

  it("criteria are validated and kept in order", () => {
    const s = scenario().addNode("a", { question: question() }).setEntry("a");
    s.addOutcome(
      "pass",
      allOf(lastTurn({ verify_result: true }), anyOf(), atLeastN(1, statusIs("completed"))),
      {
        description: "d",
      },
    );
    s.addOutcome("count", countTurns({ node: "a" }));
    s.addOutcomeCriterion({ name: "src", evaluate_source: "lambda r: r.turn_count <= 4" });
    const criteria = s.validate().outcome_criteria;
    expect(criteria.map((c) => [c.name, c.description, c.check?.type ?? null, c.evaluate_source])).toEqual([
      ["pass", "d", "all_of", null],
      ["count", "", "count_turns", null],
      ["src", "", null, "lambda r: r.turn_count <= 4"],
    ]);
    expect(thrown(() => s.addOutcome("bad", { type: "bogus" } as never)).message).toContain(
      "invalid outcome 'bad'",
    );
    expect(
      thrown(() => s.addOutcomeCriterion({ name: "x", evaluate_source: "lambda r: (" })).message,
    ).toContain("Cannot compile callable");
  });

  it("refuses compositions nested past the limit instead of overflowing the stack", () => {
    let check = lastTurn({ verify_result: true });
    for (let i = 0; i < 100_000; i++) check = allOf(check);
    expect(thrown(() => scenario().addOutcome("deep", check)).message).toContain(
      "nest deeper than 64 levels",
    );
  });
});

describe("pythonExpressionProblem", () => {
  it("accepts lambdas, strings with brackets, comments and continuation lines", () => {
    for (const source of [
      "lambda acc, p: {**acc, 'pushes': acc.get('pushes', 0) + 1}",
      "lambda st: st.parsed.get('x') == ')'",
      'lambda r: r"\\(" in "a"',
      "lambda r: (r.turn_count\n  <= 4)  # short",
      "lambda s: s.turn > 0 \\\n and True",
      "lambda r: f\"{r.status}\" == 'completed'",
      "lambda a, p: {**a, 'ü': '→'}   ",
    ]) {
      expect(pythonExpressionProblem(source), source).toBeNull();
    }
  });

  it("refuses what can never be an expression", () => {
    expect(pythonExpressionProblem("lambda acc, p: (")).toBe("'(' was never closed");
    expect(pythonExpressionProblem("lambda x: x)")).toBe("unmatched ')'");
    expect(pythonExpressionProblem("lambda x: [x)")).toContain("does not match");
    expect(pythonExpressionProblem("lambda x: 'abc")).toBe("unterminated string literal");
    expect(pythonExpressionProblem("")).toBe("the source is empty");
    expect(pythonExpressionProblem("import os")).toContain("statement");
    expect(pythonExpressionProblem("x = 1; y")).toContain("';'");
    expect(pythonExpressionProblem("lambda x: x\nlambda y: y")).toContain("more than one line");
  });
});
