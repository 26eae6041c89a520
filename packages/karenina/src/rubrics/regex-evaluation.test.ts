import { describe, expect, test } from "vitest";
import { parseRubric, parseRubricTrait, type RegexTrait, RubricError } from "../model/rubric/index.js";
import { thrown } from "../test-support/thrown.js";
import { TraitEvaluationError } from "./errors.js";
import { evaluateLocalTraits } from "./local-evaluation.js";
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

// A crafted response: 40 word characters then a character neither pattern can end on, so a backtracking
// engine tries all 2^40 ways of splitting the run. Without the deadline each evaluation runs for hours.
const CRAFTED = `${"a".repeat(40)}!`;

describe("a regex trait that backtracks catastrophically fails at its deadline instead of hanging", () => {
  test("through evaluateLocalTraits (the pipeline's path): both traits fail with the reason, the others score", async () => {
    const rubric = parseRubric({
      regex_traits: [
        { name: "nested", pattern: "(a+)+$" },
        { name: "words", pattern: String.raw`^(\w+\s?)+$` },
        { name: "bang", pattern: "!$" },
      ],
    });
    const start = performance.now();
    const results = await evaluateLocalTraits(rubric, CRAFTED);
    expect(performance.now() - start).toBeLessThan(10_000);
    expect(results.scores).toEqual({ nested: null, words: null, bang: true });
    expect(results.errors.nested).toBe(
      'regex trait "nested": field "pattern": Failed to evaluate regex trait \'nested\': Python regex "(a+)+$" ' +
        "timed out after 1000 ms on a 41-character text and was stopped; the pattern backtracks " +
        "catastrophically (nested quantifiers such as (a+)+?): rewrite it so that each part of the text can be " +
        "matched in only one way",
    );
    expect(results.errors.words).toContain("timed out after 1000 ms on a 41-character text");

    const next = await evaluateLocalTraits(rubric, "aaa bbb");
    expect(next).toEqual({ scores: { nested: false, words: true, bang: false }, errors: {} });
  });

  test("evaluateRegexTrait takes its own deadline and names the trait", () => {
    const error = thrown(TraitEvaluationError, () =>
      evaluateRegexTrait(regex({ name: "nested", pattern: "(a+)+$" }), CRAFTED, { timeoutMs: 200 }),
    );
    expect(error.field).toBe("pattern");
    expect(error.message).toContain(
      "Failed to evaluate regex trait 'nested': Python regex \"(a+)+$\" timed out after 200 ms",
    );
    expect(evaluateRegexTrait(regex({ pattern: "(a+)+$" }), "caaa")).toBe(true);
  });
});
