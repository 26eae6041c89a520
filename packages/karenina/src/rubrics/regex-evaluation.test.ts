import { describe, expect, test } from "vitest";
import { parseRubricTrait, type RegexTrait, RubricError } from "../model/rubric/index.js";
import { thrown } from "../test-support/thrown.js";
import { TraitEvaluationError } from "./errors.js";
import { evaluateRegexTrait } from "./regex-evaluation.js";

const regex = (fields: Record<string, unknown>) =>
  parseRubricTrait({ name: "r", ...fields }, "regex") as RegexTrait;

// The responses below are hand-written for these tests.
describe("evaluateRegexTrait: Python re.search semantics", () => {
  test("matches anywhere in the text, like re.search (not re.match)", () => {
    expect(evaluateRegexTrait(regex({ pattern: String.raw`\[\d+\]` }), "BCL2 is anti-apoptotic [3].")).toBe(
      true,
    );
    expect(evaluateRegexTrait(regex({ pattern: String.raw`\[\d+\]` }), "No citation here.")).toBe(false);
  });

  test("case_sensitive false compiles with IGNORECASE; true is case-sensitive", () => {
    expect(evaluateRegexTrait(regex({ pattern: "bcl2" }), "BCL2")).toBe(false);
    expect(evaluateRegexTrait(regex({ pattern: "bcl2", case_sensitive: false }), "BCL2")).toBe(true);
  });

  test("an inline (?i) flag applies, as in Python", () => {
    expect(evaluateRegexTrait(regex({ pattern: "(?i)venetoclax" }), "VENETOCLAX binds BCL2")).toBe(true);
  });

  test("invert_result negates the match", () => {
    expect(evaluateRegexTrait(regex({ pattern: "sorry", invert_result: true }), "Sure, here it is.")).toBe(
      true,
    );
    expect(evaluateRegexTrait(regex({ pattern: "sorry", invert_result: true }), "sorry, I cannot")).toBe(
      false,
    );
  });

  test("Python meanings are kept: $ before a final newline, Unicode \\d", () => {
    expect(evaluateRegexTrait(regex({ pattern: "done$" }), "done\n")).toBe(true);
    expect(evaluateRegexTrait(regex({ pattern: String.raw`^\d+$` }), "٣")).toBe(true);
  });
});

describe("regex traits whose pattern cannot run are refused when the trait is built", () => {
  test("an invalid Python pattern names the trait and the pattern field", () => {
    const error = thrown(RubricError, () => regex({ name: "cites", pattern: "[unclosed" }));
    expect(error.message).toMatch(/^regex trait "cites": field "pattern": Invalid regex pattern: /);
  });

  test("a valid Python pattern JavaScript cannot run faithfully is refused too", () => {
    const error = thrown(RubricError, () => regex({ name: "verbose", pattern: "(?x) a b" }));
    expect(error.field).toBe("pattern");
    expect(error.message).toContain("cannot be translated faithfully");
  });

  test("a trait object that skipped validation fails at evaluation with the original's message", () => {
    const unchecked = { ...regex({ pattern: "x" }), name: "raw", pattern: "(" };
    const error = thrown(TraitEvaluationError, () => evaluateRegexTrait(unchecked, "text"));
    expect(error.message).toContain("Failed to evaluate regex trait 'raw': ");
    expect(error.field).toBe("pattern");
  });
});
