import { describe, expect, test } from "vitest";
import {
  allOf,
  allTurns,
  anyOf,
  anyTurn,
  atLeastN,
  type CrossTurnComparison,
  countTurns,
  crossTurn,
  firstMatchIndex,
  firstTurn,
  firstTurnScope,
  lastTurn,
  lastTurnScope,
  type OutcomeNode,
  type ScenarioOutcomeCriterionInput,
  ScenarioOutcomeCriterionSchema,
  statusIs,
  turnAt,
  turnCountEq,
} from "../scenario/index.js";
import { createPrimitive, PyFloat } from "../templates/index.js";
import { result, turn, verifyHistory } from "./__fixtures__/hand-built.js";
import { ScenarioRuntimeError } from "./errors.js";
import { evaluateOutcome, evaluateOutcomeCriteria } from "./outcome-evaluation.js";
import { pyOrderingHolds } from "./python-ordering.js";
import type { TurnRecord } from "./runtime-types.js";

const T = true;
const F = false;
const verifyTrue = { type: "turn_check", field: "verify_result", expected: true } as const;

/** A TurnCheck `verify_result == true` on the turn at `index`. */
const verifiedAt = (index: number): OutcomeNode => ({
  ...verifyTrue,
  scope: turnAt(index),
  verify_with: createPrimitive("BooleanMatch"),
});

const outcome = (node: OutcomeNode, history: TurnRecord[]) => evaluateOutcome(node, result(history));

describe("turn checks (spec 08 §8.3)", () => {
  test("T-O1: last turn verified", () => {
    expect(outcome(lastTurn({ verify_result: true }), verifyHistory(F, T))).toBe(true);
    expect(outcome(lastTurn({ verify_result: true }), verifyHistory(T, F))).toBe(false);
  });

  test("T-O2: the first turn's node id (ExactMatch)", () => {
    const history = [turn({ node_id: "ask" }), turn({ node_id: "confirm" })];
    expect(outcome(firstTurn({ node_id: "ask" }), history)).toBe(true);
    expect(outcome(firstTurn({ node_id: "confirm" }), history)).toBe(false);
  });

  test("T-O3: TurnAt(1) and TurnAt(-1) index like Python", () => {
    expect(outcome(verifiedAt(1), verifyHistory(F, T, F))).toBe(true);
    expect(outcome(verifiedAt(-1), verifyHistory(F, T))).toBe(true);
    expect(outcome(verifiedAt(-2), verifyHistory(F, T))).toBe(false);
  });

  test("T-O4: any turn verified", () => {
    expect(outcome(anyTurn({ verify_result: true }), verifyHistory(F, T, F))).toBe(true);
    expect(outcome(anyTurn({ verify_result: true }), verifyHistory(F, F))).toBe(false);
  });

  test("T-O5: any turn of node 'confirm' verified", () => {
    const history = [
      turn({ node_id: "ask", verify_result: T }),
      turn({ node_id: "confirm", verify_result: F }),
    ];
    expect(outcome(anyTurn({ verify_result: true }, { node: "confirm" }), history)).toBe(false);
    expect(outcome(anyTurn({ verify_result: true }, { node: ["ask", "x"] }), history)).toBe(true);
  });

  test("T-O6: all turns verified, and an empty selection is false (no vacuous truth)", () => {
    const check = allTurns({ verify_result: true });
    expect(outcome(check, verifyHistory(T, T))).toBe(true);
    expect(outcome(check, verifyHistory(T, F))).toBe(false);
    expect(outcome(check, [])).toBe(false);
    expect(outcome(allTurns({ verify_result: true }, { node: "ghost" }), verifyHistory(T))).toBe(false);
  });

  test("T-O7: a parsed field of the last turn", () => {
    const history = [turn({ parsed_fields: { drug: "venetoclax" } })];
    expect(outcome(lastTurn({ "parsed.drug": "venetoclax" }), history)).toBe(true);
  });

  test("T-O8: TurnAt out of range is false; first and last turn of an empty history are false", () => {
    expect(outcome(verifiedAt(99), verifyHistory(T))).toBe(false);
    expect(outcome(verifiedAt(-2), verifyHistory(T))).toBe(false);
    expect(outcome(lastTurn({ verify_result: null }), [])).toBe(false);
    expect(outcome(firstTurn({ verify_result: null }), [])).toBe(false);
  });
});

describe("result checks (spec 08 §8.3)", () => {
  test("T-O9: status is completed (case-insensitive)", () => {
    expect(evaluateOutcome(statusIs("Completed"), result([]))).toBe(true);
    expect(evaluateOutcome(statusIs("completed"), result([], { status: "error" }))).toBe(false);
  });

  test("T-O10: turn count in a range, equal to 2, and the scenario id", () => {
    const r = result(verifyHistory(T, F));
    const inRange = {
      type: "result_check",
      field: "turn_count",
      expected: null,
      verify_with: createPrimitive("NumericRange", { min: 1, max: 3 }),
    } as const;
    expect(evaluateOutcome(inRange, r)).toBe(true);
    expect(evaluateOutcome(turnCountEq(2), r)).toBe(true);
    const scenarioId = {
      type: "result_check",
      field: "scenario_id",
      expected: "demo",
      verify_with: createPrimitive("ExactMatch"),
    } as const;
    expect(evaluateOutcome(scenarioId, r)).toBe(true);
  });
});

describe("cross-turn checks (spec 08 §8.3)", () => {
  const compare = (
    comparison: CrossTurnComparison,
    values: [unknown, unknown],
    fields: { source?: string; target?: string; normalize?: string[] } = {},
  ) => {
    const history = values.map((value) =>
      turn({ parsed_fields: { v: value }, raw_response: typeof value === "string" ? value : "" }),
    );
    const check = crossTurn({
      source: firstTurnScope(),
      sourceField: fields.source ?? "parsed.v",
      target: lastTurnScope(),
      targetField: fields.target ?? "parsed.v",
      comparison,
      normalize: fields.normalize ?? [],
    });
    return outcome(check, history);
  };

  test("T-O11: eq on equal values, neq on different ones", () => {
    expect(compare("eq", ["venetoclax", "venetoclax"])).toBe(true);
    expect(compare("neq", ["venetoclax", "ibrutinib"])).toBe(true);
    expect(compare("eq", ["venetoclax", "ibrutinib"])).toBe(false);
  });

  test("T-O12: gt compares the target turn (later) with the source turn", () => {
    expect(compare("gt", [3, 5])).toBe(true);
    expect(compare("gt", [5, 3])).toBe(false);
    expect(compare("lte", [5, new PyFloat(5)])).toBe(true);
  });

  test("T-O13: contains is str(source) in str(target)", () => {
    const history = [
      turn({ parsed_fields: { drug: "venetoclax" } }),
      turn({ raw_response: "The drug venetoclax is used for CLL." }),
    ];
    const check = crossTurn({
      source: turnAt(0),
      sourceField: "parsed.drug",
      target: turnAt(1),
      targetField: "raw_response",
      comparison: "contains",
    });
    expect(outcome(check, history)).toBe(true);
    expect(compare("contains", [1, [1, 2]])).toBe(true);
    expect(compare("contains", [null, "None of these"])).toBe(true);
  });

  test("T-O14: normalizers apply to str() of both values", () => {
    expect(compare("eq", ["  Venetoclax  ", "venetoclax"], { normalize: ["lowercase", "strip"] })).toBe(true);
    expect(compare("eq", [true, "true"], { normalize: ["lowercase"] })).toBe(true);
    expect(compare("eq", ["  Venetoclax  ", "venetoclax"])).toBe(false);
  });

  test("T-O15: an ordering with a null side, or mismatched types, is false", () => {
    expect(compare("gt", [null, 5])).toBe(false);
    expect(compare("gt", [5, null])).toBe(false);
    expect(compare("lt", ["a", 5])).toBe(false);
    expect(compare("gte", [{ a: 1 }, { a: 1 }])).toBe(false);
  });

  test("quirk Q13 (mirrored): eq with both values null is true", () => {
    expect(compare("eq", [null, null])).toBe(true);
    expect(compare("eq", [undefined, null], { source: "parsed.missing" })).toBe(true);
  });

  test("a many-turn scope or a missing turn makes a cross-turn check false", () => {
    const check = crossTurn({
      source: { type: "any_turn", node_id: null },
      sourceField: "node_id",
      target: lastTurnScope(),
      targetField: "node_id",
      comparison: "eq",
    });
    expect(outcome(check, verifyHistory(T))).toBe(false);
    expect(compare("eq", ["a", "a"], {})).toBe(true);
    const outOfRange = { ...check, source_turn: turnAt(5) };
    expect(outcome(outOfRange, verifyHistory(T))).toBe(false);
  });
});

describe("Python ordering", () => {
  test("numbers and bools, strings by code point, lists lexicographically", () => {
    expect(pyOrderingHolds("gt", true, 0)).toBe(true);
    expect(pyOrderingHolds("lt", "Z", "a")).toBe(true);
    // U+FF5E sorts before U+1F600 in Python; UTF-16 units would say otherwise.
    expect(pyOrderingHolds("lt", "\uff5e", "\u{1f600}")).toBe(true);
    expect(pyOrderingHolds("lt", [1, 2], [1, 3])).toBe(true);
    expect(pyOrderingHolds("lt", [1, 2], [1, 2, 0])).toBe(true);
    expect(pyOrderingHolds("gte", [1, "a"], [1, "a"])).toBe(true);
    expect(() => pyOrderingHolds("lt", [1, "a"], [1, 2])).toThrow(
      "'<' not supported between instances of 'str' and 'int'",
    );
  });
});

describe("aggregations and compositions (spec 08 §8.3)", () => {
  test("T-O16: CountTurns by verify result, by node, by node list", () => {
    const history = [
      turn({ node_id: "probe", verify_result: T }),
      turn({ node_id: "a", verify_result: F }),
      turn({ node_id: "b", verify_result: T }),
    ];
    expect(outcome(countTurns({ verifyResult: true }), history)).toBe(2);
    expect(outcome(countTurns({ node: "probe" }), history)).toBe(1);
    expect(outcome(countTurns({ node: ["a", "b"] }), history)).toBe(2);
    expect(outcome(countTurns({ verifyResult: false }), verifyHistory(null, F))).toBe(1);
  });

  test("T-O17: FirstMatchIndex without a match is -1", () => {
    expect(outcome(firstMatchIndex({ verifyResult: false }), verifyHistory(T, T))).toBe(-1);
    expect(outcome(firstMatchIndex({ verifyResult: false }), verifyHistory(T, F, F))).toBe(1);
  });

  test("T-O18: empty AllOf true, empty AnyOf false, AtLeastN(0) true, AtLeastN(2) of [T, F, T] true", () => {
    const r = result(verifyHistory(T, F, T));
    expect(evaluateOutcome(allOf(), r)).toBe(true);
    expect(evaluateOutcome(anyOf(), r)).toBe(false);
    expect(evaluateOutcome(atLeastN(0), r)).toBe(true);
    expect(evaluateOutcome(atLeastN(2, verifiedAt(0), verifiedAt(1), verifiedAt(2)), r)).toBe(true);
    expect(evaluateOutcome(atLeastN(3, verifiedAt(0), verifiedAt(1), verifiedAt(2)), r)).toBe(false);
  });

  test("an aggregation inside a composition is false, with a warning", () => {
    const warnings: string[] = [];
    const r = result(verifyHistory(T));
    expect(evaluateOutcome(anyOf(countTurns()), r, (m) => warnings.push(m))).toBe(false);
    expect(warnings).toEqual([
      "An outcome composition holds a 'count_turns' aggregation, which is not a check; it counts as false",
    ]);
  });

  test("quirk Q43 (mirrored): a leaf that raises makes the whole criterion false, even inside AnyOf", () => {
    const raising: OutcomeNode = lastTurn({ "parsed.score": 3 }); // NumericExact on null raises
    const r = result(verifyHistory(T));
    const warnings: string[] = [];
    expect(
      evaluateOutcome(anyOf(raising, lastTurn({ verify_result: true })), r, (m) => warnings.push(m)),
    ).toBe(false);
    expect(warnings[0]).toContain("TypeError: float() argument must be a string or a real number");
    // An earlier passing branch short-circuits before the raising one.
    expect(evaluateOutcome(anyOf(lastTurn({ verify_result: true }), raising), r)).toBe(true);
  });
});

describe("outcome criteria (spec 08 §4.14)", () => {
  const criterion = (input: ScenarioOutcomeCriterionInput) => ScenarioOutcomeCriterionSchema.parse(input);
  const evaluate = async (inputs: ScenarioOutcomeCriterionInput[], history = verifyHistory(T, T)) => {
    const warnings: string[] = [];
    const outcomes = await evaluateOutcomeCriteria(inputs.map(criterion), result(history), {
      callables: null,
      warn: (m) => warnings.push(m),
    });
    return { outcomes, warnings };
  };

  test("a check wins over evaluate; aggregations give numbers", async () => {
    const { outcomes } = await evaluate([
      { name: "ok", check: lastTurn({ verify_result: true }), evaluate: () => false },
      { name: "count", check: countTurns({ verifyResult: true }) },
    ]);
    expect(outcomes).toEqual({ ok: true, count: 2 });
  });

  test("T-O19: an evaluate callable that raises gives false with a warning", async () => {
    const { outcomes, warnings } = await evaluate([
      {
        name: "div",
        evaluate: () => {
          throw new RangeError("division by zero");
        },
      },
    ]);
    expect(outcomes).toEqual({ div: false });
    expect(warnings).toEqual([
      "Outcome criterion 'div' raised RangeError: division by zero; it evaluates to false",
    ]);
  });

  test("T-O20: a criterion with neither check nor evaluate is absent, with a warning", async () => {
    const { outcomes, warnings } = await evaluate([{ name: "empty" }]);
    expect(outcomes).toEqual({});
    expect(warnings).toEqual([
      "Outcome criterion 'empty' has neither a check nor an evaluate callable; skipped",
    ]);
  });

  test("T-O21: a TypeScript evaluate `r.turn_count <= 3` on two turns is true, and sees outcome_results as {}", async () => {
    const seen: unknown[] = [];
    const { outcomes } = await evaluate([
      {
        name: "short",
        evaluate: (r) => {
          seen.push((r as { outcome_results: unknown }).outcome_results);
          return (r as { turn_count: number }).turn_count <= 3;
        },
      },
    ]);
    expect(outcomes).toEqual({ short: true });
    expect(seen).toEqual([{}]);
  });

  test("evaluate values: numbers and null kept, undefined is null, other values are false with a warning", async () => {
    const { outcomes, warnings } = await evaluate([
      { name: "n", evaluate: () => 2.5 },
      { name: "none", evaluate: () => undefined },
      { name: "text", evaluate: () => "yes" },
    ]);
    expect(outcomes).toEqual({ n: 2.5, none: null, text: false });
    expect(warnings).toEqual([
      "Outcome criterion 'text' returned a string instead of a boolean, a number or None; it evaluates to false",
    ]);
  });

  test("duplicate names: the last value wins, at the first position", async () => {
    const { outcomes } = await evaluate([
      { name: "a", evaluate: () => 1 },
      { name: "b", evaluate: () => 2 },
      { name: "a", evaluate: () => 3 },
    ]);
    expect(Object.entries(outcomes)).toEqual([
      ["a", 3],
      ["b", 2],
    ]);
  });

  test("a criterion named __proto__ is an ordinary key", async () => {
    const { outcomes } = await evaluate([{ name: "__proto__", evaluate: () => true }]);
    expect(Object.keys(outcomes)).toEqual(["__proto__"]);
    expect(Object.getPrototypeOf(outcomes)).toBe(Object.prototype);
  });

  test("a Python evaluate source without a runner is a ScenarioRuntimeError", async () => {
    await expect(evaluate([{ name: "py", evaluate_source: "lambda r: True" }])).rejects.toBeInstanceOf(
      ScenarioRuntimeError,
    );
  });
});
