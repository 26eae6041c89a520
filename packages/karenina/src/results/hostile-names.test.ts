import { describe, expect, test } from "vitest";
import { row } from "./__fixtures__/rows.js";
import { summarizeResults } from "./index.js";

/**
 * Trait names, class labels and keywords come from checkpoints and judges: named after Object.prototype
 * members they must be counted as themselves, never read Object's members nor change a summary's prototype.
 */
describe("summaries keyed by names from data", () => {
  test("a score trait named constructor is a score, not a literal trait labelled by Object's constructor", () => {
    const summary = summarizeResults([
      row({
        question: "q1",
        rubric: { rubric_evaluation_performed: true, llm_trait_scores: { constructor: 4 } },
      }),
      row({
        question: "q2",
        rubric: { rubric_evaluation_performed: true, llm_trait_scores: { constructor: 2 } },
      }),
    ]);
    expect(summary.rubric_scores.llm.constructor).toEqual({
      kind: "score",
      count: 2,
      mean: 3,
      min: 2,
      max: 4,
    });
  });

  test("literal labels named constructor and __proto__ are counted like any label", () => {
    const literal = (label: string) => ({
      rubric_evaluation_performed: true,
      llm_trait_scores: { tone: 0 },
      llm_trait_labels: { tone: label },
    });
    const summary = summarizeResults([
      row({ question: "q1", rubric: literal("constructor") }),
      row({ question: "q2", rubric: literal("constructor") }),
      row({ question: "q3", rubric: literal("__proto__") }),
    ]);
    const tone = summary.rubric_scores.llm.tone as { kind: string; labels: Record<string, number> };
    expect(tone.kind).toBe("literal");
    expect(Object.getPrototypeOf(tone.labels)).toBe(Object.prototype);
    expect(Object.entries(tone.labels)).toEqual([
      ["constructor", 2],
      ["__proto__", 1],
    ]);
  });

  test("a keyword named __proto__ has its pass rate like any keyword", () => {
    const summary = summarizeResults([
      row({ question: "q1", keywords: ["__proto__", "constructor"], verify: true }),
    ]);
    expect(Object.keys(summary.template_pass_by_keyword)).toEqual(["__proto__", "constructor"]);
    expect(Object.getPrototypeOf(summary.template_pass_by_keyword)).toBe(Object.prototype);
    expect(
      Object.getOwnPropertyDescriptor(summary.template_pass_by_keyword, "__proto__")?.value,
    ).toMatchObject({
      total: 1,
      passed: 1,
    });
  });
});
