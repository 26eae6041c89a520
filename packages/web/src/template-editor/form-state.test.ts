import { describe, expect, test } from "vitest";
import type { BuilderFieldSpec, BuilderTemplateSpec } from "../library-types/index.js";
import { fieldSpec as field, PRIMITIVES, primitive } from "./__fixtures__/builder.js";
import {
  addField,
  classWarnings,
  defaultVerifyWith,
  descriptionWarnings,
  groundTruthText,
  nameErrorsOf,
  paramControls,
  paramText,
  parseChoices,
  parseGroundTruth,
  parseParam,
  primitivesFor,
  removeField,
  replaceField,
  strategyMode,
  strategyOf,
  withFieldType,
  withPrimitive,
} from "./form-state.js";

const spec = (
  fields: BuilderFieldSpec[],
  verify_strategy: BuilderTemplateSpec["verify_strategy"] = null,
) => ({
  class_name: "Answer",
  verify_strategy,
  fields,
});

describe("ground truth ↔ input text", () => {
  test.each([
    ["str", "BCL2", "BCL2"],
    ["date", "2024-05-01", "2024-05-01"],
    ["literal", "yes", "yes"],
    ["bool", true, "true"],
    ["bool", false, "false"],
    ["int", 42, "42"],
    ["float", 0.25, "0.25"],
    ["list_str", ["a", "b"], "a\nb"],
  ])("a %s ground truth %j reads as %j and back", (type, value, text) => {
    const shown = groundTruthText({ type, ground_truth: value });
    expect(shown).toEqual({ kind: "typed", text });
    expect(parseGroundTruth(type, shown)).toEqual({ ok: true, value });
  });

  test("a value that does not fit its type (a conditional ground truth) is edited as JSON and kept", () => {
    const conditional = { cases: [{ when: { field: "x", equals: 1 }, value: "a" }], default: "b" };
    const shown = groundTruthText({ type: "str", ground_truth: conditional });
    expect(shown.kind).toBe("json");
    expect(parseGroundTruth("str", shown)).toEqual({ ok: true, value: conditional });
  });

  test("list items are one per line, blanks and padding dropped", () => {
    expect(parseGroundTruth("list_str", { kind: "typed", text: " a \n\n b\n" })).toEqual({
      ok: true,
      value: ["a", "b"],
    });
  });

  test.each([
    ["int", "4.5", "Enter a whole number"],
    ["int", "", "Enter a whole number"],
    ["int", "99999999999999999999", "The number is too large"],
    ["float", "abc", "Enter a number"],
    ["float", " ", "Enter a number"],
    ["bool", "maybe", "Choose True or False"],
  ])("a %s input %j is refused: %s", (type, text, error) => {
    expect(parseGroundTruth(type, { kind: "typed", text })).toEqual({ ok: false, error });
  });

  test("invalid JSON is refused", () => {
    expect(parseGroundTruth("str", { kind: "json", text: "{" })).toEqual({
      ok: false,
      error: "Not valid JSON",
    });
  });
});

describe("primitives and their parameters", () => {
  test("a field type offers the primitives that apply to it, and those that apply to any", () => {
    expect(primitivesFor("float", PRIMITIVES).map((p) => p.name)).toEqual([
      "ExactMatch",
      "NumericExact",
      "NumericTolerance",
      "NumericMinimum",
    ]);
  });

  test("parameters become controls by their JSON Schema", () => {
    expect(paramControls(primitive("NumericTolerance"))).toEqual([
      {
        name: "tolerance",
        control: "number",
        nullable: false,
        required: true,
        options: [],
        defaultValue: undefined,
      },
      {
        name: "mode",
        control: "enum",
        nullable: false,
        required: false,
        options: ["relative", "absolute"],
        defaultValue: "relative",
      },
    ]);
    expect(paramControls(primitive("TraceRegex")).map((c) => [c.name, c.control, c.nullable])).toEqual([
      ["pattern", "text", false],
      ["count_min", "integer", true],
    ]);
    expect(paramControls(primitive("ExactMatch"))[0]?.control).toBe("json");
    expect(paramControls(primitive("RegexMatch"))[1]?.control).toBe("lines");
  });

  test("a parameter's text converts both ways; empty is null when nullable", () => {
    const [, countMin] = paramControls(primitive("TraceRegex"));
    if (countMin === undefined) throw new Error("no count_min");
    expect(parseParam(countMin, "")).toEqual({ ok: true, value: null });
    expect(parseParam(countMin, "3")).toEqual({ ok: true, value: 3 });
    expect(parseParam(countMin, "3.5")).toEqual({ ok: false, error: "Enter a whole number" });
    expect(paramText(countMin, null)).toBe("");
    const [normalize] = paramControls(primitive("ExactMatch"));
    if (normalize === undefined) throw new Error("no normalize");
    const value = ["lowercase", { mapping: { "bcl-2": "bcl2" } }];
    expect(parseParam(normalize, paramText(normalize, value))).toEqual({ ok: true, value });
  });

  test("a chosen primitive comes with its defaults, the type last; a trace primitive marks the field", () => {
    expect(defaultVerifyWith(primitive("NumericTolerance"))).toEqual({
      tolerance: 1,
      mode: "relative",
      type: "NumericTolerance",
    });
    const traced = withPrimitive(field({ type: "bool", ground_truth: true }), primitive("TraceRegex"));
    expect(traced.verify_with).toEqual({ pattern: "", count_min: null, type: "TraceRegex" });
    expect(Object.keys(traced.verify_with).at(-1)).toBe("type");
    expect(traced.is_trace).toBe(true);
  });
});

describe("changing a field's type", () => {
  test("keeps a ground truth that still reads as the new type and a primitive that still applies", () => {
    const retyped = withFieldType(field({ ground_truth: "12" }), "int", PRIMITIVES);
    expect(retyped).toMatchObject({ type: "int", ground_truth: 12, verify_with: field({}).verify_with });
  });

  test("else takes the type's default ground truth and the generator's primitive", () => {
    const retyped = withFieldType(field({}), "bool", PRIMITIVES);
    expect(retyped).toMatchObject({
      type: "bool",
      ground_truth: true,
      verify_with: { type: "BooleanMatch" },
      is_trace: false,
    });
  });

  test("to multiple choice: the ground truth becomes the first choice", () => {
    const retyped = withFieldType(field({}), "literal", PRIMITIVES);
    expect(retyped).toMatchObject({
      literal_values: ["BCL2"],
      ground_truth: "BCL2",
      verify_with: { type: "LiteralMatch" },
    });
    expect(withFieldType(retyped, "str", PRIMITIVES).literal_values).toBeNull();
  });
});

describe("fields and composition", () => {
  const two = spec([field({}), field({ name: "dose", type: "float", ground_truth: 2.5 })], {
    type: "at_least_n",
    n: 1,
    field_name: null,
    conditions: [
      { type: "field_check", n: null, field_name: "target", conditions: [] },
      { type: "field_check", n: null, field_name: "dose", conditions: [] },
    ],
  });

  test("a new field is field_<n>, apart from the other names", () => {
    const added = addField(spec([field({ name: "field_2" })]));
    expect(added.fields.map((f) => f.name)).toEqual(["field_2", "field_3"]);
    expect(added.fields[1]).toMatchObject({
      type: "str",
      ground_truth: "",
      verify_with: { type: "ExactMatch" },
    });
  });

  test("renaming a field renames its checks in the strategy", () => {
    const renamed = replaceField(two, 0, field({ name: "protein" }));
    expect(strategyMode(renamed.verify_strategy)).toEqual({
      kind: "at_least_n",
      n: 1,
      fields: ["protein", "dose"],
    });
  });

  test("removing a field removes its checks from the strategy", () => {
    expect(strategyMode(removeField(two, 1).verify_strategy)).toEqual({
      kind: "at_least_n",
      n: 1,
      fields: ["target"],
    });
  });

  test("a flat strategy maps to the form and back; the default is null; a deeper tree is nested and kept", () => {
    const mode = strategyMode(two.verify_strategy);
    expect(strategyOf(mode, two.verify_strategy)).toEqual(two.verify_strategy);
    expect(strategyMode(null)).toEqual({ kind: "default" });
    expect(strategyOf({ kind: "default" }, two.verify_strategy)).toBeNull();
    const nested = {
      type: "any_of" as const,
      n: null,
      field_name: null,
      conditions: [{ type: "all_of" as const, n: null, field_name: null, conditions: [] }],
    };
    expect(strategyMode(nested)).toEqual({ kind: "nested" });
    expect(strategyOf({ kind: "nested" }, nested)).toBe(nested);
  });
});

describe("warnings", () => {
  test("descriptions: missing, very short, very long", () => {
    expect(descriptionWarnings(" ")[0]).toMatch(/missing/);
    expect(descriptionWarnings("Gene")[0]).toMatch(/very short/);
    expect(descriptionWarnings("x".repeat(501))[0]).toMatch(/very long/);
    expect(descriptionWarnings("Target protein named in the response")).toEqual([]);
  });

  test("class: no fields, many fields, all of one type", () => {
    expect(classWarnings(spec([]))).toEqual(["The template has no fields: add one"]);
    const many = Array.from({ length: 11 }, (_, i) => field({ name: `f${i}` }));
    expect(classWarnings(spec(many))).toHaveLength(2);
    expect(classWarnings(spec([field({}), field({ name: "dose", type: "int", ground_truth: 1 })]))).toEqual(
      [],
    );
  });
});

test("the name errors of a spec say which field has which", () => {
  const errors = nameErrorsOf({
    class_name: "Answer",
    verify_strategy: null,
    fields: [field({ name: "dose" }), field({ name: "dose" }), field({ name: "ok" })],
  });
  expect(errors).toEqual([
    'Field 1: Another field is named "dose"',
    'Field 2: Another field is named "dose"',
  ]);
});

describe("parseChoices (Multiple Choice values)", () => {
  test("one per line, blanks dropped; a repeated choice is kept once with a warning, not refused", () => {
    expect(parseChoices(" low \n\nhigh\n")).toEqual({ ok: true, value: ["low", "high"] });
    expect(parseChoices("low\nhigh\nlow\nhigh\nmid")).toEqual({
      ok: true,
      value: ["low", "high", "mid"],
      warning: "Repeated, kept once: low, high",
    });
    expect(parseChoices("\n  \n")).toEqual({ ok: false, error: "Give at least one choice" });
  });
});
