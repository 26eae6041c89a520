import { describe, expect, test } from "vitest";
import { PyFloat } from "../../python-repr/index.js";
import {
  compositionLabel,
  evaluateStrategy,
  granularScore,
  type StrategyNode,
  StrategyNodeSchema,
  strategyFromSpec,
  strategyToSpec,
} from "./composition.js";
import { compileConditional, resolveSource } from "./conditional.js";
import { VerificationError } from "./errors.js";

const check = (field: string): StrategyNode => ({ type: "field_check", field });

describe("composition strategies", () => {
  const results = { gene: true, organism: false, dose: null, route: true };

  test("a FieldCheck passes only on true; null is not satisfied", () => {
    expect(evaluateStrategy(check("gene"), results)).toBe(true);
    expect(evaluateStrategy(check("dose"), results)).toBe(false);
  });

  test("empty AllOf passes, empty AnyOf fails, AtLeastN(0) always passes", () => {
    expect(evaluateStrategy({ type: "all_of", conditions: [] }, results)).toBe(true);
    expect(evaluateStrategy({ type: "any_of", conditions: [] }, results)).toBe(false);
    expect(evaluateStrategy({ type: "at_least_n", n: 0, conditions: [] }, results)).toBe(true);
  });

  test("at least two of: gene, organism, dose-or-route", () => {
    const node: StrategyNode = {
      type: "at_least_n",
      n: 2,
      conditions: [
        check("gene"),
        check("organism"),
        { type: "any_of", conditions: [check("dose"), check("route")] },
      ],
    };
    expect(evaluateStrategy(node, results)).toBe(true);
    expect(evaluateStrategy(node, { ...results, route: false })).toBe(false);
  });

  test("a FieldCheck on an unknown field is a KeyError", () => {
    expect(() => evaluateStrategy(check("nope"), results)).toThrow(
      new VerificationError("KeyError", "'nope'"),
    );
  });

  test("nodes are validated: n ≥ 0, conditions default to []", () => {
    expect(StrategyNodeSchema.safeParse({ type: "at_least_n", n: -1 }).success).toBe(false);
    expect(StrategyNodeSchema.parse({ type: "any_of" })).toEqual({ type: "any_of", conditions: [] });
  });

  test("builder nodes use field_name, runtime nodes field", () => {
    const spec = { type: "field_check" as const, n: null, field_name: "gene", conditions: [] };
    expect(strategyFromSpec(spec)).toEqual(check("gene"));
    expect(strategyToSpec(check("gene"))).toEqual(spec);
    expect(compositionLabel({ type: "at_least_n", n: 2, conditions: [] })).toBe("at_least_n(2)");
  });
});

describe("granular score (only the root node type matters)", () => {
  const fields = [
    { weight: 2, score: 1 },
    { weight: 2, score: 0 },
    { weight: 1, score: 1 },
  ];

  test("weights 2, 2, 1 and scores 1, 0, 1: 0.6 by default, 0.4 with AnyOf", () => {
    expect(granularScore(null, fields)).toBeCloseTo(0.6, 12);
    expect(granularScore({ type: "all_of", conditions: [] }, fields)).toBeCloseTo(0.6, 12);
    expect(granularScore({ type: "any_of", conditions: [check("x")] }, fields)).toBeCloseTo(0.4, 12);
  });

  test("AtLeastN sums the n best weighted scores; null scores count 0; zero weight gives 0", () => {
    expect(granularScore({ type: "at_least_n", n: 2, conditions: [] }, fields)).toBeCloseTo(0.6, 12);
    expect(granularScore({ type: "at_least_n", n: 1, conditions: [] }, fields)).toBeCloseTo(0.4, 12);
    expect(
      granularScore(null, [
        { weight: 1, score: null },
        { weight: 1, score: 1 },
      ]),
    ).toBe(0.5);
    expect(granularScore(null, [{ weight: 0, score: 1 }])).toBe(0);
  });
});

describe("conditional ground truth", () => {
  const conditional = {
    source: "node_results.triage.parsed.severity",
    cases: {
      high: { value: 3, verify_with: { exclusive: false, type: "NumericMinimum" } },
      True: { value: "yes", verify_with: null },
      "1.0": { value: "float", verify_with: null },
    },
    default: { value: 2, verify_with: null },
    __conditional__: true,
  };
  const resolve = compileConditional(conditional);
  const scenario = (severity: unknown) => ({ node_results: { triage: { parsed: { severity } } } });

  test("outside a scenario the default applies", () => {
    expect(resolve(undefined)).toEqual({ value: 2, primitive: null });
  });

  test("a matching case gives its value and replaces the primitive", () => {
    const chosen = resolve(scenario("high"));
    expect(chosen.value).toBe(3);
    expect(chosen.primitive?.type).toBe("NumericMinimum");
  });

  test("cases are looked up by Python str() of the value", () => {
    expect(resolve(scenario(true)).value).toBe("yes");
    expect(resolve(scenario(new PyFloat(1))).value).toBe("float");
    expect(resolve(scenario(1)).value).toBe(2);
  });

  test("a missing path or null falls back to the default", () => {
    expect(resolve(scenario(null)).value).toBe(2);
    expect(resolve({ node_results: {} }).value).toBe(2);
    expect(resolveSource("a.b", { a: "text" })).toBeNull();
  });

  test("a malformed conditional or case primitive fails when used, as Python does", () => {
    expect(() => compileConditional({ __conditional__: true })(undefined)).toThrow(VerificationError);
    const badCase = compileConditional({
      ...conditional,
      cases: { high: { value: 1, verify_with: { type: "Nope" } } },
    });
    expect(badCase(undefined).value).toBe(2);
    expect(() => badCase(scenario("high"))).toThrow("Unknown primitive type: 'Nope'");
  });
});
