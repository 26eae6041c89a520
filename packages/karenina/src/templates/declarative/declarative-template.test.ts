import { describe, expect, test } from "vitest";
import { DeclarativeTemplate } from "./declarative-template.js";
import { TemplateSpecError } from "./errors.js";
import { loadDeclarativeTemplate } from "./load-declarative-template.js";
import type { TemplateFieldSpecInput } from "./template-spec.js";

const field = (overrides: Partial<TemplateFieldSpecInput> & { name: string }): TemplateFieldSpecInput => ({
  type: "str",
  description: `The ${overrides.name}`,
  ground_truth: "x",
  verify_with: { type: "ExactMatch" },
  ...overrides,
});

const drugTemplate = () =>
  loadDeclarativeTemplate({
    fields: [
      field({ name: "target", ground_truth: "BCL2", extraction_hint: "gene symbol", weight: 2 }),
      field({
        name: "dose_mg",
        type: "float",
        ground_truth: 400,
        verify_with: { type: "NumericGraded", cutoff: 0.2 },
      }),
      field({
        name: "cites",
        type: "bool",
        ground_truth: true,
        verify_with: { type: "TraceRegex", pattern: String.raw`\[\d+\]` },
        is_trace: true,
      }),
    ],
  });

describe("schemas for the judge", () => {
  test("the prompt schema strips ground truth and trace fields", () => {
    const template = drugTemplate();
    expect(template.judgeSchema).toEqual({
      additionalProperties: true,
      properties: {
        id: { anyOf: [{ type: "string" }, { type: "null" }], default: null, title: "Id" },
        target: { description: "The target", title: "Target", type: "string" },
        dose_mg: { description: "The dose_mg", title: "Dose Mg", type: "number" },
      },
      required: ["target", "dose_mg"],
      title: "Answer",
      type: "object",
    });
    expect(JSON.stringify(template.judgeSchema)).not.toContain("BCL2");
  });

  test("the structured-output schema is the relaxed sibling: nullable, optional, no descriptions, trace kept", () => {
    const schema = drugTemplate().structuredOutputSchema;
    expect(schema.title).toBe("Answer__Relaxed");
    expect(schema.required).toBeUndefined();
    expect((schema.properties as Record<string, unknown>).cites).toEqual({
      anyOf: [{ type: "boolean" }, { type: "null" }],
      default: null,
      title: "Cites",
    });
  });

  test("types map as Pydantic does: list[str], Literal enum and const", () => {
    const template = loadDeclarativeTemplate({
      class_name: "Pick",
      fields: [
        field({
          name: "tags",
          type: "list_str",
          ground_truth: ["a"],
          verify_with: { type: "SetContainment" },
        }),
        field({
          name: "level",
          type: "literal",
          literal_values: ["low", "high"],
          verify_with: { type: "LiteralMatch" },
        }),
        field({
          name: "only",
          type: "literal",
          literal_values: ["x"],
          verify_with: { type: "LiteralMatch" },
        }),
        field({ name: "when", type: "date", verify_with: { type: "DateMatch" } }),
        field({ name: "n", type: "int", ground_truth: 1, verify_with: { type: "NumericExact" } }),
      ],
    });
    const properties = template.judgeSchema.properties as Record<string, Record<string, unknown>>;
    expect(properties.tags).toMatchObject({ items: { type: "string" }, type: "array" });
    expect(properties.level).toMatchObject({ enum: ["low", "high"], type: "string" });
    expect(properties.only).toMatchObject({ const: "x", type: "string" });
    expect(properties.when).toMatchObject({ type: "string" });
    expect(properties.n).toMatchObject({ type: "integer" });
    expect(template.judgeSchema.title).toBe("Pick");
  });

  test("ground truth, hints and the no-judge flag", () => {
    const template = drugTemplate();
    expect(template.groundTruth).toEqual({ target: "BCL2", dose_mg: 400, cites: true });
    expect(template.extractionHints).toEqual({ target: "gene symbol" });
    expect(template.needsNoJudge).toBe(false);
    expect(template.runtime).toBe("declarative");
    expect(template.mode).toBe("verified");
  });
});

describe("evaluation", () => {
  test("per-field results, scores and the weighted granular score", async () => {
    const result = await drugTemplate().evaluate(
      { target: "bcl2", dose_mg: "440" },
      { rawResponse: "no refs" },
    );
    expect(result.fieldResults).toEqual({ target: true, dose_mg: true, cites: false });
    expect(result.fieldScores.dose_mg).toBeCloseTo(0.5, 12);
    expect(result.verify).toBe(false);
    expect(result.verifyGranular).toBeCloseTo((2 + 0.5) / 4, 12);
    expect(result.error).toBeNull();
  });

  test("a null or missing value gives a null result, not an error", async () => {
    const result = await drugTemplate().evaluate({ target: null }, { rawResponse: "[1]" });
    expect(result.fieldResults).toEqual({ target: null, dose_mg: null, cites: true });
    expect(result.verify).toBe(false);
    expect(result.verifyGranular).toBeCloseTo(1 / 4, 12);
  });

  test("fields listed under _unanswered_fields are null", async () => {
    const result = await drugTemplate().evaluate(
      { target: "BCL2", dose_mg: 400, _unanswered_fields: ["target"] },
      { rawResponse: "[1]" },
    );
    expect(result.fieldResults.target).toBeNull();
  });

  test("a value Pydantic would reject fails the evaluation with a message", async () => {
    const result = await drugTemplate().evaluate({ target: 5, dose_mg: "lots" }, { rawResponse: "" });
    expect(result.verify).toBe(false);
    expect(result.verifyGranular).toBeNull();
    expect(result.error).toMatch(
      /^Parsed answer does not fit the template: target: Input should be a valid string/,
    );
  });

  test("a float field holds a Python float: ExactMatch against '5.0' passes", async () => {
    const template = loadDeclarativeTemplate({
      fields: [field({ name: "x", type: "float", ground_truth: "5.0" })],
    });
    expect((await template.evaluate({ x: 5 })).verify).toBe(true);
  });

  test("a trace field without the raw response is a ValueError", async () => {
    const result = await drugTemplate().evaluate({ target: "BCL2", dose_mg: 400 });
    expect(result.error).toBe(
      "Field verification failed: Field 'cites' uses a TracePrimitive but requires _raw_trace to be set",
    );
    expect(result.verifyGranular).toBeNull();
  });

  test("ground truth false on a trace field means the pattern must not occur", async () => {
    const template = loadDeclarativeTemplate({
      fields: [
        field({
          name: "hedges",
          type: "bool",
          ground_truth: false,
          verify_with: { type: "TraceContains", substring: "maybe" },
          is_trace: true,
        }),
      ],
    });
    expect(template.needsNoJudge).toBe(true);
    expect((await template.evaluate({}, { rawResponse: "It is BCL2." })).verify).toBe(true);
    expect((await template.evaluate({}, { rawResponse: "maybe BCL2" })).verify).toBe(false);
  });

  test("an exception in a check becomes 'Field verification failed: …'", async () => {
    const template = loadDeclarativeTemplate({
      fields: [field({ name: "n", type: "str", ground_truth: 3, verify_with: { type: "NumericMinimum" } })],
    });
    const result = await template.evaluate({ n: "three" });
    expect(result).toMatchObject({
      verify: false,
      fieldVerify: false,
      verifyGranular: null,
      error: "Field verification failed: could not convert string to float: 'three'",
    });
  });

  test("a strategy decides the verdict and the granular rule", async () => {
    const spec = {
      fields: [
        field({ name: "a", ground_truth: "x", weight: 2 }),
        field({ name: "b", ground_truth: "x", weight: 2 }),
        field({ name: "c", ground_truth: "x", weight: 1 }),
      ],
      verify_strategy: {
        type: "any_of" as const,
        conditions: [
          { type: "field_check" as const, field_name: "b" },
          { type: "field_check" as const, field_name: "c" },
        ],
      },
    };
    const result = await loadDeclarativeTemplate(spec).evaluate({ a: "x", b: "y", c: "x" });
    expect(result.verify).toBe(true);
    expect(result.verifyGranular).toBeCloseTo(0.4, 12);
    const noStrategy = await loadDeclarativeTemplate({ ...spec, verify_strategy: null }).evaluate({
      a: "x",
      b: "y",
      c: "x",
    });
    expect(noStrategy.verify).toBe(false);
    expect(noStrategy.verifyGranular).toBeCloseTo(0.6, 12);
  });

  test("a FieldCheck on an unknown field fails verification with a KeyError", async () => {
    const template = loadDeclarativeTemplate(
      { fields: [field({ name: "a" })] },
      { type: "field_check", field: "zz" },
    );
    const result = await template.evaluate({ a: "x" });
    expect(result.error).toBe("Field verification failed: 'zz'");
    expect(result.fieldResults).toEqual({ a: true });
  });

  test("conditional ground truth is resolved from the scenario context", async () => {
    const template = loadDeclarativeTemplate({
      fields: [
        field({
          name: "score",
          type: "int",
          verify_with: { type: "NumericExact" },
          ground_truth: {
            source: "node_results.triage.severity",
            cases: { high: { value: 3, verify_with: { type: "NumericMinimum" } } },
            default: { value: 1, verify_with: null },
            __conditional__: true,
          },
        }),
      ],
    });
    expect(template.groundTruth).toEqual({});
    expect((await template.evaluate({ score: 1 })).verify).toBe(true);
    const high = await template.evaluate(
      { score: 5 },
      { scenarioContext: { node_results: { triage: { severity: "high" } } } },
    );
    expect(high.verify).toBe(true);
    expect(high.groundTruths).toEqual({ score: 3 });
  });

  test("an invalid spec is refused with every problem", () => {
    expect(() => loadDeclarativeTemplate({ fields: [field({ name: "x", type: "text" })] })).toThrow(
      TemplateSpecError,
    );
    expect(
      () => new DeclarativeTemplate({ fields: [], verify_strategy: null, class_name: "A" }),
    ).not.toThrow();
  });
});
