import { describe, expect, test } from "vitest";
import {
  type ScenarioEdge,
  type ScenarioEdgeInput,
  ScenarioEdgeSchema,
  stateCheckFromShorthand,
} from "../scenario/index.js";
import { createPrimitive } from "../templates/index.js";
import { state } from "./__fixtures__/hand-built.js";
import { resolveNextNode } from "./edge-selection.js";
import { ScenarioRuntimeError } from "./errors.js";
import type { ScenarioState } from "./runtime-types.js";

const edge = (input: ScenarioEdgeInput): ScenarioEdge => ScenarioEdgeSchema.parse(input);

/** Resolves with no Python runner, collecting warnings. */
async function resolve(edges: ScenarioEdge[], s: ScenarioState) {
  const warnings: string[] = [];
  const next = await resolveNextNode(edges, s, { callables: null, warn: (m) => warnings.push(m) });
  return { ...next, warnings };
}

describe("edge selection (spec 08 §4.5, §8.2)", () => {
  const A = edge({ source: "q", target: "x", condition: stateCheckFromShorthand({ verify_result: true }) });
  const B = edge({ source: "q", target: "y" });
  const C = edge({ source: "q", target: "z", condition: stateCheckFromShorthand({ turn: 1 }) });

  test("T-E1: a later conditional edge that matches wins over an earlier fallback", async () => {
    const next = await resolve([A, B, C], state({ verify_result: false, turn: 1 }));
    expect(next.target).toBe("z");
    expect(next.edge).toBe(C);
  });

  test("T-E2: nothing matches, so the first unconditional edge is taken", async () => {
    const next = await resolve([A, B, C], state({ verify_result: false, turn: 0 }));
    expect(next.target).toBe("y");
    expect(next.edge).toBe(B);
  });

  test("T-E3: no edges give no target", async () => {
    expect(await resolve([], state())).toEqual({ target: null, edge: null, warnings: [] });
  });

  test("only the first unconditional edge is a fallback", async () => {
    const end = edge({ source: "q", target: "__end__" });
    const next = await resolve([end, B], state());
    expect(next.edge).toBe(end);
  });

  test("T-E4: a condition callable that throws is skipped with a warning and the fallback is taken", async () => {
    const raising = edge({
      source: "q",
      target: "x",
      condition_callable: () => {
        throw new TypeError("boom");
      },
    });
    const next = await resolve([raising, B], state());
    expect(next.edge).toBe(B);
    expect(next.warnings).toEqual([
      "The condition of edge 'q' -> 'x' raised TypeError: boom; the edge does not match",
    ]);
  });

  test("a condition callable matches by Python truthiness and wins over the declarative condition", async () => {
    const seen: unknown[] = [];
    const byCallable = edge({
      source: "q",
      target: "x",
      condition: stateCheckFromShorthand({ verify_result: false }),
      condition_callable: (st) => {
        seen.push(st);
        return [];
      },
    });
    const s = state({ verify_result: false });
    expect((await resolve([byCallable, B], s)).edge).toBe(B);
    expect(seen).toEqual([s]);
    const truthy = edge({ source: "q", target: "x", condition_callable: async () => "yes" });
    expect((await resolve([truthy, B], s)).edge).toBe(truthy);
  });

  test("T-E5: a list condition needs every check to pass", async () => {
    const both = edge({
      source: "q",
      target: "x",
      condition: [stateCheckFromShorthand({ verify_result: true }), stateCheckFromShorthand({ turn: 2 })],
    });
    expect((await resolve([both, B], state({ verify_result: true, turn: 1 }))).edge).toBe(B);
    expect((await resolve([both, B], state({ verify_result: true, turn: 2 }))).edge).toBe(both);
  });

  test("a list condition stops at the first failing check", async () => {
    const list = edge({
      source: "q",
      target: "x",
      condition: [
        stateCheckFromShorthand({ verify_result: true }),
        stateCheckFromShorthand({ "parsed.n": 3 }),
      ],
    });
    // The second check would raise on the missing value; it is never reached.
    const next = await resolve([list, B], state({ verify_result: false }));
    expect(next.edge).toBe(B);
    expect(next.warnings).toEqual([]);
  });

  test("T-E6: only conditional edges and none matching give no target", async () => {
    expect(await resolve([A, C], state({ verify_result: false, turn: 0 }))).toEqual({
      target: null,
      edge: null,
      warnings: [],
    });
  });

  test("T-E9: BooleanMatch expecting false does not match a null verify result", async () => {
    const onFalse = edge({
      source: "q",
      target: "retry",
      condition: { field: "verify_result", expected: false, verify_with: createPrimitive("BooleanMatch") },
    });
    expect((await resolve([onFalse], state({ verify_result: null }))).target).toBeNull();
    expect((await resolve([onFalse], state({ verify_result: false }))).target).toBe("retry");
  });

  test("T-E10 (quirk Q7, fixed): a numeric shorthand on a missing parsed value is no match with a warning", async () => {
    // The original raises TypeError (float(None)) and the whole combo is lost; here the edge just does not match.
    const onScore = edge({
      source: "q",
      target: "x",
      condition: stateCheckFromShorthand({ "parsed.score": 3 }),
    });
    const next = await resolve([onScore, B], state({ parsed: {} }));
    expect(next.edge).toBe(B);
    expect(next.warnings).toEqual([
      "The state check on field 'parsed.score' of edge 'q' -> 'x' raised TypeError: float() argument must be " +
        "a string or a real number, not 'NoneType'; the edge does not match",
    ]);
    expect((await resolve([onScore, B], state({ parsed: { score: 3 } }))).edge).toBe(onScore);
  });

  test("a trace primitive in a state check cannot check a value: no match with a warning", async () => {
    const trace = edge({
      source: "q",
      target: "x",
      condition: {
        field: "verify_result",
        verify_with: createPrimitive("TraceContains", { substring: "a" }),
      },
    });
    const next = await resolve([trace], state());
    expect(next.target).toBeNull();
    expect(next.warnings[0]).toContain("NotImplementedError: TraceContains checks the raw response");
  });

  test("a Python condition source without a runner is a ScenarioRuntimeError naming the edge", async () => {
    const python = edge({ source: "q", target: "x", condition_source: "lambda st: st.turn > 0" });
    const attempt = resolve([python, B], state());
    await expect(attempt).rejects.toBeInstanceOf(ScenarioRuntimeError);
    await expect(attempt).rejects.toThrow("The condition of edge 'q' -> 'x' is Python source");
  });
});
