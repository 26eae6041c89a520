import { describe, expect, test } from "vitest";
import { type LlmTrait, parseRubricTrait } from "../../model/rubric/index.js";
import { thrown } from "../../test-support/thrown.js";
import {
  ExcerptReplyError,
  excerptSimilarity,
  isValidExcerpt,
  parseExcerptReply,
  traitHallucinationRisk,
  validateExcerpts,
} from "./excerpts.js";
import { parseFallbackScore } from "./fallback-score.js";

// Excerpts and responses are hand-written; expected similarities were computed with CPython 3.11
// (" ".join(s.split()) on both sides, then SequenceMatcher(None, excerpt, response).find_longest_match).
const RESPONSE = "Venetoclax  inhibits\u2028BCL-2 in CLL.";

describe("excerpt similarity", () => {
  test("whitespace runs collapse with Python's rules (U+2028 included) before matching", () => {
    expect(excerptSimilarity("Venetoclax inhibits BCL-2", RESPONSE)).toBe(1);
    expect(
      excerptSimilarity("BCL2  inhibits\napoptosis", "Venetoclax targets BCL2 inhibits apoptosis."),
    ).toBe(1);
  });

  test("is the longest common block divided by the excerpt's length", () => {
    expect(excerptSimilarity("BCL2 blocks", "BCL2 inhibits apoptosis")).toBe(5 / 11);
    expect(excerptSimilarity("inhibits BCL-2 in CLL cells", RESPONSE)).toBe(21 / 27);
  });

  test("follows difflib's autojunk on responses of 200+ characters", () => {
    const response =
      "Venetoclax is a BH3 mimetic that selectively inhibits BCL-2, an anti-apoptotic protein overexpressed in chronic lymphocytic leukaemia. By binding BCL-2 it frees pro-apoptotic proteins such as BIM, which triggers mitochondrial outer membrane permeabilisation and cell death.";
    expect(excerptSimilarity("selectively inhibits BCL2, an anti-apoptotic protein", response)).toBe(24 / 52);
  });

  test("an empty or blank excerpt scores 0", () => {
    expect(excerptSimilarity(" \n", RESPONSE)).toBe(0);
  });
});

describe("excerpt validation", () => {
  test("needs both similarity ≥ 0.75 and ≥ the trait threshold", () => {
    expect(isValidExcerpt(0.75, 0.5)).toBe(true);
    expect(isValidExcerpt(0.74, 0.5)).toBe(false);
    expect(isValidExcerpt(0.78, 0.8)).toBe(false);
  });

  test("splits an attempt's excerpts into valid and failed, each with its similarity_score", () => {
    const validation = validateExcerpts(
      [
        { text: "Venetoclax inhibits BCL-2", confidence: "high" },
        { text: "inhibits BCL-2 in CLL cells", confidence: "low" },
      ],
      RESPONSE,
      0.8,
    );
    expect(validation.valid).toEqual([
      { text: "Venetoclax inhibits BCL-2", confidence: "high", similarity_score: 1 },
    ]);
    expect(validation.failed).toEqual([
      { text: "inhibits BCL-2 in CLL cells", confidence: "low", similarity_score: 21 / 27 },
    ]);
  });

  test("replies are read with an unknown confidence as medium; a malformed reply is an ExcerptReplyError", () => {
    expect(parseExcerptReply({ excerpts: [{ text: "a", confidence: "certain" }] })).toEqual([
      { text: "a", confidence: "medium" },
    ]);
    expect(thrown(ExcerptReplyError, () => parseExcerptReply({ quotes: [] })).message).toContain(
      '{"excerpts": [...]}',
    );
    expect(() => parseExcerptReply({ excerpts: [{ confidence: "high" }] })).toThrow(ExcerptReplyError);
  });

  test("a trait's hallucination risk is the highest of its excerpts'", () => {
    expect(traitHallucinationRisk(["none", "high", "low"]).overall_risk).toBe("high");
    expect(traitHallucinationRisk([])).toEqual({ overall_risk: "none", per_excerpt_risks: [] });
  });
});

describe("score extraction fallback on plain text (spec 03 §10.3 step 4)", () => {
  const llm = (fields: Record<string, unknown>) => parseRubricTrait(fields, "llm") as LlmTrait;
  const ok = llm({ name: "ok", kind: "boolean" });
  const depth = llm({ name: "depth", kind: "score", min_score: 2, max_score: 8 });

  test("booleans: exact words first, then containment of true/yes, else false", () => {
    expect(
      ["True", " no ", "1", "0", "I'd say yes.", "It is true", "Unclear"].map((t) =>
        parseFallbackScore(ok, t),
      ),
    ).toEqual([true, false, true, false, true, true, false]);
  });

  test("scores: the first integer, else min_score or 1, clamped", () => {
    expect(parseFallbackScore(depth, "Score: 6/8")).toBe(6);
    expect(parseFallbackScore(depth, "I give it 11")).toBe(8);
    expect(parseFallbackScore(depth, "No number")).toBe(2);
  });

  test("literal traits take the numeric path too (no label)", () => {
    const tone = llm({ name: "tone", kind: "literal", classes: { a: "A", b: "B", c: "C" } });
    expect(parseFallbackScore(tone, "class 2")).toBe(2);
  });
});
