/**
 * Python callable sources (spec 08 §2.10) run through a real Pyodide sandbox: conditions, state updates and
 * outcome criteria as the original's users write them, and sources that raise or try to escape.
 */
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import {
  ScenarioEdgeSchema,
  ScenarioNodeSchema,
  type ScenarioOutcomeCriterionInput,
  ScenarioOutcomeCriterionSchema,
} from "../scenario/index.js";
import { sandboxForTheseTests } from "../test-support/python-sandbox-for-tests.js";
import { result, state, turn, verifyHistory } from "./__fixtures__/hand-built.js";
import { resolveNextNode } from "./edge-selection.js";
import { evaluateOutcomeCriteria } from "./outcome-evaluation.js";
import type { ScenarioState } from "./runtime-types.js";
import { SandboxScenarioCallables } from "./scenario-callables.js";
import { applyStateUpdate } from "./state-update.js";

const sandbox = sandboxForTheseTests({ timeoutMs: 15_000 });
const callables = new SandboxScenarioCallables(sandbox);

/** The target chosen from [a Python-conditioned edge to "x", a fallback to "y"], with the warnings. */
async function route(source: string, s: ScenarioState) {
  const edges = [
    ScenarioEdgeSchema.parse({ source: "q", target: "x", condition_source: source }),
    ScenarioEdgeSchema.parse({ source: "q", target: "y" }),
  ];
  const warnings: string[] = [];
  const next = await resolveNextNode(edges, s, { callables, warn: (m) => warnings.push(m) });
  return { target: next.target, warnings };
}

async function update(
  source: string,
  accumulated: Record<string, unknown>,
  parsed: Record<string, unknown> = {},
) {
  const node = ScenarioNodeSchema.parse({
    node_id: "ask",
    question: { question: "Q?", raw_answer: "A" },
    state_update_source: source,
  });
  const warnings: string[] = [];
  const next = await applyStateUpdate(node, accumulated, parsed, {
    callables,
    warn: (m) => warnings.push(m),
  });
  return { next, warnings };
}

async function outcomes(inputs: ScenarioOutcomeCriterionInput[], r = result(verifyHistory(true, false))) {
  const warnings: string[] = [];
  const values = await evaluateOutcomeCriteria(
    inputs.map((input) => ScenarioOutcomeCriterionSchema.parse(input)),
    r,
    { callables, warn: (m) => warnings.push(m) },
  );
  return { values, warnings };
}

describe("Python conditions", () => {
  test("a lambda on the state's attributes routes the edge", async () => {
    expect((await route("lambda st: st.turn > 0", state({ turn: 1 }))).target).toBe("x");
    expect((await route("lambda st: st.turn > 0", state({ turn: 0 }))).target).toBe("y");
  });

  test("parsed and node_results are dicts; history holds turn records with attributes", async () => {
    const s = state({
      turn: 2,
      parsed: { drug: "venetoclax" },
      node_visits: { ask: 2 },
      node_results: { ask: { verify_result: false, parsed: { drug: "v" }, rubric: { clarity: 4 } } },
      history: [
        turn({ node_id: "ask", verify_result: true, parsed_answer: { drug: "x" } }),
        turn({ node_id: "ask", verify_result: false }),
      ],
    });
    const source =
      "lambda st: isinstance(st.parsed, dict) and st.parsed.get('drug') == 'venetoclax'" +
      " and st.node_results['ask']['rubric']['clarity'] == 4 and st.node_visits.get('ask', 0) == 2" +
      " and st.history[0].verify_result is True and st.history[-1].node_id == 'ask'" +
      " and st.history[0].parsed_answer.drug == 'x' and st.history[0].parsed_answer['drug'] == 'x'" +
      " and st.current_node == 'ask' and st.accumulated == {}";
    expect(await route(source, s)).toEqual({ target: "x", warnings: [] });
  });

  test("the value counts by Python truthiness", async () => {
    expect((await route("lambda st: []", state())).target).toBe("y");
    expect((await route("lambda st: st.history", state({ history: [turn()] }))).target).toBe("x");
  });

  test("a condition that raises is no match, with a warning naming the edge and the Python error", async () => {
    const { target, warnings } = await route("lambda st: 1 / 0", state());
    expect(target).toBe("y");
    expect(warnings).toEqual([
      "The condition of edge 'q' -> 'x' raised ZeroDivisionError: division by zero; the edge does not match",
    ]);
  });

  test("withheld fields say so; a source that is not a callable expression is refused", async () => {
    const withheld = await route("lambda st: st.history[0].trace_messages", state({ history: [turn()] }));
    expect(withheld.warnings[0]).toContain(
      "AttributeError: TurnRecord.trace_messages is not given to scenario callables",
    );
    expect((await route("42", state())).warnings[0]).toContain("TypeError: the source must be a callable");
    expect((await route("import os", state())).warnings[0]).toContain("SyntaxError");
  });
});

describe("Python state updates", () => {
  test("a spread lambda returns the new accumulated state", async () => {
    const source = 'lambda acc, p: {**acc, "pushes": acc.get("pushes", 0) + 1, "last": p.get("drug")}';
    const { next, warnings } = await update(source, { pushes: 1 }, { drug: "v" });
    expect(next).toEqual({ pushes: 2, last: "v" });
    expect(warnings).toEqual([]);
  });

  test("T-M5: an update that mutates in place and then raises is rolled back", async () => {
    const accumulated = { nested: { list: [1] } };
    const { next, warnings } = await update(
      "lambda acc, p: (acc['nested']['list'].append(99), 1 / 0)",
      accumulated,
    );
    expect(next).toEqual({ nested: { list: [1] } });
    expect(warnings).toEqual([
      "The state_update of node 'ask' raised ZeroDivisionError: division by zero; the accumulated state is restored",
    ]);
  });

  test("quirk Q15 (fixed): an in-place update returning None is rolled back", async () => {
    const { next, warnings } = await update("lambda acc, p: acc.update({'x': 1})", { keep: 1 });
    expect(next).toEqual({ keep: 1 });
    expect(warnings).toEqual([
      "The state_update of node 'ask' returned None instead of an object; the accumulated state is restored",
    ]);
  });

  test("a return that is not JSON data is an error, rolled back", async () => {
    const { next, warnings } = await update("lambda acc, p: {'s': {1, 2}}", { keep: 1 });
    expect(next).toEqual({ keep: 1 });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^The state_update of node 'ask' raised .*; the accumulated state is restored$/,
    );
  });
});

describe("Python outcome criteria", () => {
  test("T-O21: `lambda r: r.turn_count <= 3` on two turns is true; numbers come back as numbers", async () => {
    const { values, warnings } = await outcomes([
      { name: "short", evaluate_source: "lambda r: r.turn_count <= 3" },
      { name: "correct", evaluate_source: "lambda r: sum(1 for t in r.history if t.verify_result)" },
      { name: "ratio", evaluate_source: "lambda r: 0.5" },
      { name: "none", evaluate_source: "lambda r: None" },
    ]);
    expect(values).toEqual({ short: true, correct: 1, ratio: 0.5, none: null });
    expect(warnings).toEqual([]);
  });

  test("the result view: status, path, final state, failure, replicate and an empty outcome_results", async () => {
    const r = result([turn({ node_id: "ask", parsed_fields: { drug: "v" } })], {
      status: "error",
      replicate: 2,
      terminal_failure: { node_id: "ask", category: "parsing", stage: "ParseTemplate", reason: "bad" },
      outcome_results: { earlier: true },
    });
    r.final_state.accumulated = { pushes: 3 };
    const source =
      "lambda r: r.status == 'error' and r.path == ['ask'] and r.scenario_id == 'demo' and r.replicate == 2" +
      " and r.final_state.accumulated['pushes'] == 3 and r.final_state.history[0].parsed_fields['drug'] == 'v'" +
      " and r.terminal_failure.category == 'parsing' and r.outcome_results == {}";
    expect((await outcomes([{ name: "view", evaluate_source: source }], r)).values).toEqual({ view: true });
  });

  test("T-O19: a source raising `1/0` gives false, with a warning", async () => {
    const { values, warnings } = await outcomes([{ name: "div", evaluate_source: "lambda r: 1/0" }]);
    expect(values).toEqual({ div: false });
    expect(warnings).toEqual([
      "Outcome criterion 'div' raised ZeroDivisionError: division by zero; it evaluates to false",
    ]);
  });

  test("turn_results is withheld", async () => {
    const { values, warnings } = await outcomes([
      { name: "rows", evaluate_source: "lambda r: len(r.turn_results)" },
    ]);
    expect(values).toEqual({ rows: false });
    expect(warnings[0]).toContain("ScenarioExecutionResult.turn_results is not given to scenario callables");
  });
});

describe("hostile sources", () => {
  test("starting a process or writing a file fails inside the sandbox and leaves the host untouched", async () => {
    const planted = join(tmpdir(), `karenina-scenario-callable-${process.pid}`);
    const attempts = [
      `lambda st: __import__('os').system('touch ${planted}') == 0`,
      `lambda st: __import__('subprocess').run(['touch', '${planted}']).returncode == 0`,
      `lambda st: open('${planted}', 'w').write('x')`,
    ];
    for (const source of attempts) {
      // Either the attempt raises (a warning) or it reports failure: never a match.
      expect([source, (await route(source, state())).target]).toEqual([source, "y"]);
    }
    const { values } = await outcomes([{ name: "escape", evaluate_source: attempts[2] as string }]);
    expect(values).toEqual({ escape: false });
    expect(existsSync(planted)).toBe(false);
  });

  test("one source cannot leave anything behind for another", async () => {
    await route("lambda st: setattr(__import__('builtins'), 'len', lambda x: 0)", state());
    expect((await route("lambda st: len([1, 2]) == 2", state())).target).toBe("x");
  });
});
