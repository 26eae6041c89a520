import { describe, expect, test } from "vitest";
import { LlmTraitSchema } from "../../../karenina/src/model/index.js";
import type { LlmTrait, MetricTrait } from "../library-types/index.js";
import { classesProblem, rowsToClasses, traitFieldErrors } from "./field-errors.js";
import { convertTrait, newTrait } from "./traits.js";

const binary = (): LlmTrait => newTrait(null);
const withClasses = (classes: Record<string, string>): LlmTrait => ({
  ...binary(),
  kind: "literal",
  classes,
  min_score: 0,
  max_score: Object.keys(classes).length - 1,
});

/** The library's own message for the classes, to check the card says the same. */
function libraryMessage(classes: Record<string, string>): string | null {
  const result = LlmTraitSchema.safeParse({ name: "t", kind: "literal", classes });
  return result.success ? null : (result.error.issues[0]?.message ?? null);
}

describe("literal classes", () => {
  test.each([
    [{ only: "One" }],
    [Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`c${i}`, "d"]))],
    [{ " ": "blank name", b: "B" }],
    [{ a: "A", b: "  " }],
    [{ Good: "G", good: "g" }],
    [{ a: "A", b: "B" }],
  ])("the card reports what the library reports for %j", (classes) => {
    expect(traitFieldErrors(withClasses(classes), false).classes ?? null).toBe(libraryMessage(classes));
  });

  test("rows with the same exact name cannot become a record (the card keeps them until renamed)", () => {
    expect(
      rowsToClasses([
        { name: "a", description: "1" },
        { name: "a", description: "2" },
      ]),
    ).toBeNull();
    expect(
      rowsToClasses([
        { name: "a", description: "1" },
        { name: "A", description: "2" },
      ]),
    ).toEqual({ a: "1", A: "2" });
    expect(
      classesProblem([
        { name: "a", description: "1" },
        { name: "A", description: "2" },
      ]),
    ).toBe("Duplicate class name (case-insensitive): 'A'");
  });
});

describe("names", () => {
  test("empty, dotted, and duplicated names are errors of the card", () => {
    expect(traitFieldErrors({ ...binary(), name: " " }, false).name).toBe("Name is required");
    expect(traitFieldErrors({ ...binary(), name: "a.b" }, false).name).toMatch(/cannot contain '\.'/);
    expect(traitFieldErrors(binary(), true).name).toMatch(/Another trait of this rubric is named 'Trait 1'/);
    expect(traitFieldErrors(binary(), false)).toEqual({});
  });
});

describe("score range and deep judgment", () => {
  test("score bounds are whole numbers 1–10 with the minimum below the maximum", () => {
    const score = convertTrait(binary(), "score") as LlmTrait;
    expect(traitFieldErrors(score, false)).toEqual({});
    expect(traitFieldErrors({ ...score, min_score: 0 }, false).min_score).toMatch(/from 1 to 10/);
    expect(traitFieldErrors({ ...score, max_score: null }, false).max_score).toMatch(/from 1 to 10/);
    expect(traitFieldErrors({ ...score, min_score: 5, max_score: 5 }, false).max_score).toBe(
      "Maximum must be above the minimum",
    );
  });

  test("deep-judgment settings are checked only when it is enabled; empty means the run's default", () => {
    const wrong = { ...binary(), deep_judgment_fuzzy_match_threshold: 1.5, deep_judgment_max_excerpts: 0 };
    expect(traitFieldErrors(wrong, false)).toEqual({});
    const enabled = traitFieldErrors({ ...wrong, deep_judgment_enabled: true }, false);
    expect(enabled.deep_judgment_fuzzy_match_threshold).toMatch(/between 0 and 1/);
    expect(enabled.deep_judgment_max_excerpts).toMatch(/at least 1/);
    expect(traitFieldErrors({ ...binary(), deep_judgment_enabled: true }, false)).toEqual({});
  });
});

describe("regex and metric", () => {
  test("an empty pattern and missing instructions are reported on their fields", () => {
    expect(traitFieldErrors(convertTrait(binary(), "regex"), false)).toEqual({ pattern: "Enter a pattern" });
    const metric = convertTrait(binary(), "metric") as MetricTrait;
    expect(Object.keys(traitFieldErrors(metric, false))).toEqual(["tp_instructions"]);
    const full = { ...metric, evaluation_mode: "full_matrix" as const, tp_instructions: ["x"], metrics: [] };
    expect(Object.keys(traitFieldErrors(full, false))).toEqual(["metrics", "tn_instructions"]);
  });
});
