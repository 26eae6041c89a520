import { describe, expect, test } from "vitest";
import { type LlmTrait, parseRubricTrait } from "../model/rubric/index.js";
import { thrown } from "../test-support/thrown.js";
import { TraitEvaluationError } from "./errors.js";
import {
  literalFailure,
  parseBatchLiteralReply,
  parseSequentialLiteralReply,
  resolveLiteralClass,
} from "./literal-replies.js";
import {
  normalizeBooleanVerdict,
  normalizeScore,
  parseBatchScoresReply,
  parseSequentialScoreReply,
} from "./score-replies.js";
import { flattenTemplateResult, parseTemplateTraitReply } from "./template-replies.js";

const llm = (fields: Record<string, unknown>) => parseRubricTrait(fields, "llm") as LlmTrait;
const clarity = llm({ name: "clarity", kind: "score" });
const cites = llm({ name: "cites", kind: "boolean" });
const tone = llm({ name: "tone", kind: "literal", classes: { formal: "F", neutral: "N", casual: "C" } });

// Every judge reply below is hand-written for these tests.
describe("score normalisation (spec 03 §9.4)", () => {
  test("booleans: a bool stays; numbers and strings are true unless 0/empty/'false'/'0'/'no'", () => {
    expect([true, false].map(normalizeBooleanVerdict)).toEqual([true, false]);
    expect(["true", "YES", "False", "no", "0", "", " false"].map(normalizeBooleanVerdict)).toEqual([
      true,
      true,
      false,
      false,
      false,
      false,
      true,
    ]);
    expect([1, 0, 2].map(normalizeBooleanVerdict)).toEqual([true, false, true]);
    expect([null, [], {}, [0], { a: 1 }].map(normalizeBooleanVerdict)).toEqual([
      false,
      false,
      false,
      true,
      true,
    ]);
  });

  test("scores: int() then clamp to [min or 1, max or 5]; floats truncate, integer strings read", () => {
    expect([0, 3, 9, 4.9, -2.5, "4", " +2 ", "1_0", true].map((v) => normalizeScore(clarity, v))).toEqual([
      1, 3, 5, 4, 1, 4, 2, 5, 1,
    ]);
  });

  test("quirk R2 (mirrored): min_score 0 clamps at 1, so a 0–10 trait cannot score 0", () => {
    expect(normalizeScore(llm({ name: "d", kind: "score", min_score: 0, max_score: 10 }), 0)).toBe(1);
  });

  test("a value int() refuses is an error naming the trait", () => {
    for (const value of ["3.5", "high", null, [3]]) {
      expect(thrown(TraitEvaluationError, () => normalizeScore(clarity, value)).message).toMatch(
        /^llm trait "clarity": the judge gave .*, which is not an integer score$/,
      );
    }
  });

  test("a score trait with min ≥ max is an error when evaluating (our addition)", () => {
    const empty = llm({ name: "empty", kind: "score", min_score: 3, max_score: 3 });
    expect(thrown(TraitEvaluationError, () => normalizeScore(empty, 3)).message).toBe(
      'llm trait "empty": field "min_score": min_score (3) must be lower than max_score (3)',
    );
  });
});

describe("batch boolean/score replies", () => {
  test("unknown names are ignored, missing traits are null, values are normalised", () => {
    expect(parseBatchScoresReply([clarity, cites], { scores: { clarity: "7", stray: true } })).toEqual({
      clarity: 5,
      cites: null,
    });
    expect(parseBatchScoresReply([clarity, cites], { scores: { cites: "no", clarity: 2 } })).toEqual({
      clarity: 2,
      cites: false,
    });
  });

  test("an unusable reply or a non-integer score fails the whole batch", () => {
    expect(
      thrown(TraitEvaluationError, () => parseBatchScoresReply([clarity], { result: 1 })).message,
    ).toContain('not an object with "scores"');
    expect(
      thrown(TraitEvaluationError, () => parseBatchScoresReply([clarity], { scores: [] })).message,
    ).toContain("not an object");
    expect(() => parseBatchScoresReply([clarity, cites], { scores: { clarity: "good" } })).toThrow(
      TraitEvaluationError,
    );
  });
});

describe("sequential boolean/score replies", () => {
  test("read {result} for booleans and {score} for scores", () => {
    expect(parseSequentialScoreReply(cites, { result: "yes" })).toBe(true);
    expect(parseSequentialScoreReply(clarity, { score: 0 })).toBe(1);
    expect(() => parseSequentialScoreReply(clarity, { result: 3 })).toThrow(TraitEvaluationError);
  });
});

describe("literal replies", () => {
  test("exact label → index; case-insensitive → canonical label; otherwise −1 keeping the invalid label", () => {
    expect(resolveLiteralClass(tone, "neutral")).toEqual({ score: 1, label: "neutral" });
    expect(resolveLiteralClass(tone, "CASUAL")).toEqual({ score: 2, label: "casual" });
    expect(resolveLiteralClass(tone, "snarky")).toEqual({ score: -1, label: "snarky" });
  });

  test("batch: list converted to a map, later entries win, unknown traits ignored, missing → [MISSING_FROM_RESPONSE]", () => {
    const register = llm({ name: "register", kind: "literal", classes: { low: "L", high: "H" } });
    const reply = {
      classifications: [
        { trait_name: "tone", class_name: "formal" },
        { trait_name: "tone", class_name: "Neutral" },
        { trait_name: "other", class_name: "x" },
      ],
    };
    expect(parseBatchLiteralReply([tone, register], reply)).toEqual({
      tone: { score: 1, label: "neutral" },
      register: { score: -1, label: "[MISSING_FROM_RESPONSE]" },
    });
    expect(() => parseBatchLiteralReply([tone], { classifications: {} })).toThrow(TraitEvaluationError);
  });

  test("sequential: {classification}; a failed call is recorded as −1 [EVALUATION_ERROR: …]", () => {
    expect(parseSequentialLiteralReply(tone, { classification: "casual" })).toEqual({
      score: 2,
      label: "casual",
    });
    const error = thrown(TraitEvaluationError, () => parseSequentialLiteralReply(tone, { class: "casual" }));
    expect(literalFailure(error.message)).toEqual({
      score: -1,
      label: `[EVALUATION_ERROR: llm trait "tone": the judge reply is an object, not an object with "classification"]`,
    });
  });
});

describe("template-kind replies", () => {
  const kind = {
    type: "template" as const,
    schema: {
      properties: {
        steps: { type: "integer" },
        ordered: { type: "boolean" },
        tags: { type: "array", items: { type: "string" } },
        score: { anyOf: [{ type: "number" }, { type: "null" }], default: null },
        label: { type: "string", default: "none" },
      },
      required: ["steps", "ordered"],
    },
  };
  const structure = llm({ name: "structure", kind, higher_is_better: null });

  test("fields are flattened to trait.field keys, read leniently, with defaults for missing optional fields", () => {
    expect(parseTemplateTraitReply(structure, { steps: "3", ordered: "yes", tags: ["a"], extra: 1 })).toEqual(
      {
        "structure.steps": 3,
        "structure.ordered": true,
        "structure.tags": ["a"],
        "structure.score": null,
        "structure.label": "none",
      },
    );
  });

  test("a missing required field or a wrong type is an error naming the field", () => {
    expect(
      thrown(TraitEvaluationError, () => parseTemplateTraitReply(structure, { ordered: true })).message,
    ).toBe('llm trait "structure": field "kind.steps": the judge reply has no value for it');
    expect(
      thrown(TraitEvaluationError, () => parseTemplateTraitReply(structure, { steps: 2.5, ordered: true }))
        .message,
    ).toBe('llm trait "structure": field "kind.steps": expected an integer, the judge gave the number 2.5');
  });

  test("flattenTemplateResult prefixes each field with the trait name", () => {
    expect(flattenTemplateResult("t", { a: 1, b: null })).toEqual({ "t.a": 1, "t.b": null });
  });
});
