import { describe, expect, test } from "vitest";
import { RubricSchema } from "../../../karenina/src/model/index.js";
import { encodeJavaScriptCallable } from "../../../karenina/src/rubrics/index.js";
import type { RubricTrait } from "../library-types/index.js";
import {
  appendTrait,
  convertTrait,
  type EditableKind,
  newTrait,
  placedTraits,
  removeTrait,
  replaceTrait,
  withEvaluationMode,
  withMetric,
} from "./traits.js";

/** A rubric of every kind, parsed by the library (so every field is as a loaded checkpoint has it). */
const everyKind = () =>
  RubricSchema.parse({
    llm_traits: [
      {
        name: "clear",
        description: "Is it clear?",
        summary: "clarity",
        kind: "boolean",
        include_ground_truth: true,
      },
      {
        name: "depth",
        description: "How deep?",
        kind: "score",
        min_score: 2,
        max_score: 8,
        higher_is_better: false,
      },
      {
        name: "tone",
        description: "Tone",
        kind: "literal",
        classes: { rude: "Rude", neutral: "Neutral", kind: "Kind" },
        deep_judgment_enabled: true,
        deep_judgment_max_excerpts: 4,
        deep_judgment_fuzzy_match_threshold: 0.7,
        deep_judgment_excerpt_retry_attempts: 1,
        deep_judgment_search_enabled: true,
      },
    ],
    regex_traits: [
      { name: "cites", description: "Cites", pattern: String.raw`\[\d+\]`, invert_result: true },
    ],
    callable_traits: [
      {
        name: "short",
        description: "Short",
        kind: "boolean",
        callable_code: encodeJavaScriptCallable("(t) => t.length < 9"),
      },
    ],
    metric_traits: [
      {
        name: "coverage",
        description: "Covers",
        evaluation_mode: "full_matrix",
        metrics: ["precision", "accuracy"],
        tp_instructions: ["COX-1"],
        tn_instructions: ["COX-3"],
      },
    ],
    agentic_traits: [
      { name: "tests_pass", description: "Do the tests pass?", kind: "boolean", max_turns: 7 },
    ],
  });

const KINDS: readonly EditableKind[] = ["boolean", "score", "literal", "regex", "metric"];

describe("adding and removing traits", () => {
  test('"Add trait" makes a binary LLM trait named Trait <n+1> that the library accepts', () => {
    const first = newTrait(null);
    expect(first).toMatchObject({
      type: "llm",
      name: "Trait 1",
      description: "",
      kind: "boolean",
      higher_is_better: true,
    });
    const rubric = appendTrait(null, first);
    const second = newTrait(rubric);
    expect(second.name).toBe("Trait 2");
    const both = appendTrait(rubric, second);
    expect(RubricSchema.parse(both)).toEqual(both);
  });

  test("a taken Trait <n+1> name is skipped", () => {
    const rubric = appendTrait(null, { ...newTrait(null), name: "trait 2" });
    expect(newTrait(rubric).name).toBe("Trait 3");
  });

  test("removing the last trait gives null; removing another keeps the rest in order", () => {
    const rubric = everyKind();
    expect(removeTrait(appendTrait(null, newTrait(null)), { type: "llm", index: 0 })).toBeNull();
    const fewer = removeTrait(rubric, { type: "llm", index: 1 });
    expect(fewer?.llm_traits.map((trait) => trait.name)).toEqual(["clear", "tone"]);
  });
});

describe("converting a trait's type (spec 07 §1.4)", () => {
  test.each(KINDS.flatMap((from) => KINDS.map((to) => [from, to] as const)))(
    "%s → %s keeps name, description and summary",
    (from, to) => {
      const start = convertTrait(everyKind().llm_traits[0] as RubricTrait, from);
      const converted = convertTrait(start, to);
      expect(converted).toMatchObject({ name: "clear", description: "Is it clear?", summary: "clarity" });
    },
  );

  test("new score traits get 1–5, new regex traits an empty case-sensitive pattern, metric tp_only + precision", () => {
    const binary = everyKind().llm_traits[0] as RubricTrait;
    expect(convertTrait(binary, "score")).toMatchObject({ kind: "score", min_score: 1, max_score: 5 });
    expect(convertTrait(binary, "regex")).toEqual({
      type: "regex",
      name: "clear",
      description: "Is it clear?",
      summary: "clarity",
      pattern: "",
      case_sensitive: true,
      invert_result: false,
      higher_is_better: true,
    });
    expect(convertTrait(binary, "metric")).toMatchObject({
      evaluation_mode: "tp_only",
      metrics: ["precision"],
    });
  });

  test("between LLM kinds every other field (deep judgment, ground truth, direction) is kept", () => {
    const tone = everyKind().llm_traits[2] as RubricTrait;
    const score = convertTrait(tone, "score");
    expect(score).toMatchObject({
      kind: "score",
      classes: null,
      min_score: 1,
      max_score: 5,
      deep_judgment_enabled: true,
      deep_judgment_max_excerpts: 4,
      deep_judgment_fuzzy_match_threshold: 0.7,
      deep_judgment_search_enabled: true,
    });
    const depth = everyKind().llm_traits[1] as RubricTrait;
    expect(convertTrait(depth, "boolean")).toMatchObject({
      min_score: 2,
      max_score: 8,
      higher_is_better: false,
    });
  });

  test("what a conversion produces is either accepted by the library or refused only for what the user must fill in", () => {
    const binary = everyKind().llm_traits[0] as RubricTrait;
    for (const kind of KINDS) {
      const rubric = replaceTrait(everyKind(), { type: "llm", index: 0 }, convertTrait(binary, kind));
      const parsed = RubricSchema.safeParse(rubric);
      const messages = parsed.success ? [] : parsed.error.issues.map((issue) => issue.message);
      const expected =
        kind === "literal"
          ? ["Description for class 'Class 1' cannot be empty"]
          : kind === "metric"
            ? ["TP instructions must be provided (what the response should contain)"]
            : [];
      expect(messages, kind).toEqual(expected);
      if (parsed.success) expect(parsed.data).toEqual(rubric);
    }
  });

  test("a converted trait moves to its type's list; the others stay where they were", () => {
    const rubric = replaceTrait(
      everyKind(),
      { type: "llm", index: 1 },
      convertTrait(everyKind().llm_traits[1] as RubricTrait, "regex"),
    );
    expect(rubric.llm_traits.map((trait) => trait.name)).toEqual(["clear", "tone"]);
    expect(rubric.regex_traits.map((trait) => trait.name)).toEqual(["cites", "depth"]);
  });
});

describe("edits keep every field of the library's trait", () => {
  test("replacing one field of each trait leaves every other field (callable code byte for byte) unchanged", () => {
    const original = everyKind();
    let rubric = original;
    for (const { ref, trait } of placedTraits(original)) {
      rubric = replaceTrait(rubric, ref, {
        ...trait,
        description: `${trait.description} (edited)`,
      } as RubricTrait);
    }
    const reparsed = RubricSchema.parse(rubric);
    expect(reparsed).toEqual(rubric);
    for (const [index, { trait }] of placedTraits(reparsed).entries()) {
      const before = placedTraits(original)[index]?.trait as RubricTrait;
      expect({ ...trait, description: before.description }).toEqual(before);
    }
    expect(reparsed.callable_traits[0]?.callable_code).toBe(original.callable_traits[0]?.callable_code);
  });
});

describe("metric modes", () => {
  const coverage = () => everyKind().metric_traits[0] as Extract<RubricTrait, { type: "metric" }>;

  test("switching to tp_only drops the metrics it lacks and keeps the rest", () => {
    expect(withEvaluationMode(coverage(), "tp_only").metrics).toEqual(["precision"]);
  });

  test("a mode left with no metric falls back to precision", () => {
    const onlyAccuracy = { ...coverage(), metrics: ["accuracy", "specificity"] };
    expect(withEvaluationMode(onlyAccuracy, "tp_only")).toMatchObject({
      evaluation_mode: "tp_only",
      metrics: ["precision"],
    });
  });

  test("metrics are toggled in the mode's order, and the library accepts the result", () => {
    const next = withMetric(withMetric(coverage(), "f1", true), "precision", false);
    expect(next.metrics).toEqual(["f1", "accuracy"]);
    expect(() => RubricSchema.parse({ metric_traits: [next] })).not.toThrow();
  });
});
