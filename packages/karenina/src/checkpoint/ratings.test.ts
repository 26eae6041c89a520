import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { parseRubricTrait, type RubricTrait, type TraitType, traitKindLabel } from "../model/rubric/index.js";
import { thrown } from "../test-support/thrown.js";
import { CheckpointError } from "./errors.js";
import { type PropertyValue, type Rating, RatingSchema } from "./jsonld-schema.js";
import {
  dynamicTraitToRating,
  isGlobalTraitRating,
  isQuestionTraitRating,
  ratingScope,
  ratingToDynamicTrait,
  ratingToTrait,
  ratingTraitType,
  readLegacyGlobalTraits,
  stripDeepJudgment,
  type TraitScope,
  traitToRating,
} from "./ratings.js";

const CTX = { file: "bench.jsonld", jsonPath: "$.rating[2]" };
const TEMPLATE = {
  type: "template",
  schema: {
    title: "Tone",
    type: "object",
    properties: { formal: { type: "boolean" } },
    required: ["formal"],
  },
};
const CLASSES = { formal: "Formal register", neutral: "Neutral", casual: "Casual" };

const pv = (name: string, value?: unknown): PropertyValue =>
  value === undefined ? { "@type": "PropertyValue", name } : { "@type": "PropertyValue", name, value };

const rating = (fields: Partial<Rating> & Pick<Rating, "additionalType">): Rating =>
  RatingSchema.parse({ name: "t", bestRating: 1, worstRating: 0, ...fields });

const checkpointError = (run: () => unknown): CheckpointError => thrown(CheckpointError, run);

const roundTrip = (trait: RubricTrait, scope: TraitScope) =>
  ratingToTrait(traitToRating(trait, scope), CTX).trait;

const EVERY_KIND: [string, TraitType, Record<string, unknown>][] = [
  [
    "llm boolean",
    "llm",
    { name: "accurate", description: "Correct facts", kind: "boolean", summary: "accuracy" },
  ],
  [
    "llm score with deep judgment",
    "llm",
    {
      name: "clarity",
      kind: "score",
      min_score: 0,
      max_score: 10,
      deep_judgment_enabled: true,
      deep_judgment_excerpt_enabled: false,
      deep_judgment_max_excerpts: 4,
      deep_judgment_fuzzy_match_threshold: 0.9,
      deep_judgment_excerpt_retry_attempts: 1,
      deep_judgment_search_enabled: true,
      higher_is_better: false,
    },
  ],
  ["llm literal", "llm", { name: "tone", description: "Register", kind: "literal", classes: CLASSES }],
  ["llm template", "llm", { name: "structure", kind: TEMPLATE, higher_is_better: null }],
  [
    "regex",
    "regex",
    { name: "cites", pattern: String.raw`(?i)\[\d+\]`, case_sensitive: false, invert_result: true },
  ],
  [
    "callable boolean",
    "callable",
    { name: "short", kind: "boolean", callable_code: "gASVAAAA", invert_result: true },
  ],
  [
    "callable score",
    "callable",
    { name: "length", kind: "score", callable_code: "", min_score: 1, max_score: 3 },
  ],
  ["callable literal", "callable", { name: "bucket", kind: "literal", callable_code: "", classes: CLASSES }],
  [
    "metric tp_only",
    "metric",
    { name: "coverage", metrics: ["precision", "recall"], tp_instructions: ["COX-1"] },
  ],
  [
    "metric full_matrix",
    "metric",
    {
      name: "safety",
      summary: "safe",
      evaluation_mode: "full_matrix",
      metrics: ["accuracy", "f1"],
      tp_instructions: ["warns about bleeding"],
      tn_instructions: ["no dosage advice"],
      repeated_extraction: false,
      higher_is_better: true,
    },
  ],
  [
    "agentic boolean with a model override",
    "agentic",
    {
      name: "tests_pass",
      description: "Run the tests",
      kind: "boolean",
      context_mode: "workspace_only",
      max_turns: 4,
      timeout_seconds: 30,
      model_override: { id: "judge", model_name: "gpt-4.1", interface: "langchain" },
    },
  ],
  [
    "agentic literal",
    "agentic",
    { name: "grade", description: "Grade it", kind: "literal", classes: CLASSES },
  ],
  [
    "agentic template",
    "agentic",
    { name: "report", description: "Fill it", kind: TEMPLATE, higher_is_better: null },
  ],
];

describe("every kind round-trips trait → rating → trait", () => {
  test.each(EVERY_KIND)("%s", (_label, type, input) => {
    const trait = parseRubricTrait(input, type);
    expect(roundTrip(trait, "global")).toEqual(trait);
    expect(roundTrip(trait, "question")).toEqual(trait);
  });

  test("include_ground_truth is not persisted", () => {
    const trait = parseRubricTrait({ name: "x", kind: "boolean", include_ground_truth: true }, "llm");
    expect(roundTrip(trait, "global")).toMatchObject({ include_ground_truth: false });
  });
});

describe("writing a rating", () => {
  test("the additionalType follows kind and scope", () => {
    const types = EVERY_KIND.map(([, type, input]) =>
      traitToRating(parseRubricTrait(input, type), "question"),
    );
    expect(types.map((r) => r.additionalType)).toEqual([
      "karenina:QuestionSpecificRubricTrait",
      "karenina:QuestionSpecificRubricTrait",
      "karenina:QuestionSpecificLLMRubricTrait",
      "karenina:QuestionSpecificLLMRubricTrait",
      "karenina:QuestionSpecificRegexTrait",
      "karenina:QuestionSpecificCallableTrait",
      "karenina:QuestionSpecificCallableTrait",
      "karenina:QuestionSpecificCallableTrait",
      "karenina:QuestionSpecificMetricRubricTrait",
      "karenina:QuestionSpecificMetricRubricTrait",
      "karenina:QuestionSpecificAgenticRubricTrait",
      "karenina:QuestionSpecificAgenticRubricTrait",
      "karenina:QuestionSpecificAgenticRubricTrait",
    ]);
    expect(types.map((r) => [r.bestRating, r.worstRating])).toEqual([
      [1, 0],
      [10, 0],
      [2, 0],
      [0, 0],
      [1, 0],
      [1, 0],
      [3, 1],
      [2, 0],
      [1, 0],
      [1, 0],
      [1, 0],
      [2, 0],
      [0, 0],
    ]);
  });

  test("an LLM score trait is written as in spec 01 §6.13 (after deep-judgment stripping)", () => {
    const trait = parseRubricTrait(
      {
        name: "clarity",
        description: "How clear is the answer (1 = confusing, 5 = crystal clear)?",
        kind: "score",
      },
      "llm",
    );
    expect(JSON.stringify(stripDeepJudgment(traitToRating(trait, "global")))).toBe(
      JSON.stringify({
        "@type": "Rating",
        name: "clarity",
        description: "How clear is the answer (1 = confusing, 5 = crystal clear)?",
        bestRating: 5,
        worstRating: 1,
        additionalType: "karenina:GlobalRubricTrait",
        additionalProperty: [pv("higher_is_better", true), pv("min_score", 1), pv("max_score", 5)],
      }),
    );
  });

  test("LLM properties come in the original's order; null values have no value key", () => {
    const trait = parseRubricTrait(
      {
        name: "tone",
        kind: "literal",
        classes: CLASSES,
        higher_is_better: null,
        deep_judgment_max_excerpts: 2,
      },
      "llm",
    );
    const written = traitToRating(trait, "global");
    expect(written).not.toHaveProperty("description");
    expect(written.additionalProperty).toEqual([
      pv("deep_judgment_enabled", false),
      pv("deep_judgment_excerpt_enabled", true),
      pv("deep_judgment_search_enabled", false),
      pv("deep_judgment_max_excerpts", 2),
      pv("higher_is_better"),
      pv("min_score", 0),
      pv("max_score", 2),
      pv("kind", "literal"),
      pv("classes", CLASSES),
    ]);
  });

  test("a callable trait writes min/max only for kind score, and its code verbatim", () => {
    const boolean = parseRubricTrait(
      { name: "f", kind: "boolean", callable_code: "YQ==", min_score: 0, max_score: 1 },
      "callable",
    );
    expect(traitToRating(boolean, "global").additionalProperty?.map((p) => p.name)).toEqual([
      "callable_code",
      "kind",
      "invert_result",
      "higher_is_better",
    ]);
    expect(traitToRating(boolean, "global").additionalProperty?.[0]).toEqual(pv("callable_code", "YQ=="));
  });

  test("a metric trait writes instructions only when there are some, and null directionality without value", () => {
    const trait = parseRubricTrait({ name: "m", metrics: ["recall"], tp_instructions: ["x"] }, "metric");
    expect(traitToRating(trait, "global").additionalProperty).toEqual([
      pv("metrics", ["recall"]),
      pv("repeated_extraction", true),
      pv("evaluation_mode", "tp_only"),
      pv("higher_is_better"),
      pv("tp_instructions", ["x"]),
    ]);
  });

  test("a kept @id and unknown properties are written back, after the known ones", () => {
    const trait = parseRubricTrait({ name: "cites", pattern: "x" }, "regex");
    const written = traitToRating(trait, "global", {
      "@id": "urn:x",
      extraProperties: [pv("gui_color", "red")],
    });
    expect(Object.keys(written).slice(0, 3)).toEqual(["@type", "@id", "name"]);
    expect(written.additionalProperty?.at(-1)).toEqual(pv("gui_color", "red"));
  });
});

describe("reading a rating", () => {
  test("without a kind property, best 1 / worst 0 is boolean and anything else is score", () => {
    const read = (bestRating: number, worstRating: number) =>
      ratingToTrait(rating({ additionalType: "karenina:GlobalRubricTrait", bestRating, worstRating }), CTX)
        .trait;
    expect(traitKindLabel(read(1, 0))).toBe("llm_boolean");
    expect(traitKindLabel(read(5, 1))).toBe("llm_score");
    expect(traitKindLabel(read(1, 1))).toBe("llm_score");
  });

  test("a 0–1 score trait reloads as a boolean trait (the original's round-trip hazard, mirrored)", () => {
    const trait = parseRubricTrait({ name: "binary", kind: "score", min_score: 0, max_score: 1 }, "llm");
    const reloaded = roundTrip(trait, "global");
    expect(reloaded).toMatchObject({ kind: "boolean", min_score: 0, max_score: 1 });
  });

  test("the resolved kind wins over the additionalType", () => {
    const literal = rating({
      additionalType: "karenina:GlobalRubricTrait",
      additionalProperty: [pv("kind", "literal"), pv("classes", CLASSES)],
    });
    expect(traitKindLabel(ratingToTrait(literal, CTX).trait)).toBe("llm_literal");
  });

  test("an LLM rating with no properties gets the original's defaults", () => {
    const trait = ratingToTrait(
      rating({ additionalType: "karenina:QuestionSpecificRubricTrait" }),
      CTX,
    ).trait;
    expect(trait).toEqual(parseRubricTrait({ name: "t", description: null, kind: "boolean" }, "llm"));
  });

  test("a template kind forces higher_is_better to null and deep judgment off", () => {
    const template = rating({
      additionalType: "karenina:GlobalLLMRubricTrait",
      bestRating: 0,
      additionalProperty: [
        pv("deep_judgment_enabled", true),
        pv("higher_is_better", true),
        pv("kind", TEMPLATE),
      ],
    });
    expect(ratingToTrait(template, CTX).trait).toMatchObject({
      kind: TEMPLATE,
      higher_is_better: null,
      deep_judgment_enabled: false,
    });
  });

  test("a template-kind trait built with higher_is_better omitted is written as true and reloads as null", () => {
    const trait = parseRubricTrait({ name: "s", kind: TEMPLATE }, "llm");
    expect(traitToRating(trait, "global").additionalProperty).toContainEqual(pv("higher_is_better", true));
    expect(roundTrip(trait, "global").higher_is_better).toBeNull();
  });

  test("classes, metrics and instructions may be JSON text", () => {
    const literal = rating({
      additionalType: "karenina:GlobalLLMRubricTrait",
      additionalProperty: [pv("kind", "literal"), pv("classes", JSON.stringify(CLASSES))],
    });
    expect(ratingToTrait(literal, CTX).trait).toMatchObject({ classes: CLASSES, max_score: 2 });
    const metric = rating({
      additionalType: "karenina:GlobalMetricRubricTrait",
      additionalProperty: [pv("metrics", '["recall"]'), pv("tp_instructions", '["COX-1", "COX-2"]')],
    });
    expect(ratingToTrait(metric, CTX).trait).toMatchObject({
      metrics: ["recall"],
      tp_instructions: ["COX-1", "COX-2"],
    });
  });

  test("classes with no value read as null", () => {
    const boolean = rating({
      additionalType: "karenina:GlobalRubricTrait",
      additionalProperty: [pv("classes")],
    });
    expect(ratingToTrait(boolean, CTX).trait).toMatchObject({ classes: null });
  });

  test("classes holding text that is not JSON read as null, with a warning", () => {
    const boolean = rating({
      additionalType: "karenina:GlobalRubricTrait",
      additionalProperty: [pv("classes", "{oops")],
    });
    const decoded = ratingToTrait(boolean, CTX);
    expect(decoded.trait).toMatchObject({ classes: null });
    expect(decoded.warnings[0]).toContain('"classes" holds text that is not JSON');
  });

  test("a callable rating with no properties is a boolean trait with empty code", () => {
    const trait = ratingToTrait(rating({ additionalType: "karenina:GlobalCallableTrait" }), CTX).trait;
    expect(trait).toMatchObject({
      type: "callable",
      kind: "boolean",
      callable_code: "",
      invert_result: false,
    });
  });

  test("an agentic rating with no properties gets the defaults of spec 01 §6.9", () => {
    const agentic = rating({
      additionalType: "karenina:GlobalAgenticRubricTrait",
      description: "Inspect the workspace",
    });
    expect(ratingToTrait(agentic, CTX).trait).toMatchObject({
      kind: "boolean",
      higher_is_better: true,
      context_mode: "trace_and_workspace",
      max_turns: 15,
      timeout_seconds: 120,
      model_override: null,
    });
  });

  test("lax values are read as pydantic does", () => {
    const regex = rating({
      additionalType: "karenina:GlobalRegexTrait",
      additionalProperty: [pv("pattern", "x"), pv("case_sensitive", "no"), pv("invert_result", 1)],
    });
    expect(ratingToTrait(regex, CTX).trait).toMatchObject({ case_sensitive: false, invert_result: true });
  });

  test("unknown properties and the @id are handed back for the next save", () => {
    const regex = rating({
      "@id": "urn:karenina:test:cites",
      additionalType: "karenina:GlobalRegexTrait",
      additionalProperty: [pv("pattern", "x"), pv("include_ground_truth", true), pv("gui_color", "red")],
    });
    const decoded = ratingToTrait(regex, CTX);
    expect(decoded["@id"]).toBe("urn:karenina:test:cites");
    expect(decoded.unknownProperties).toEqual([pv("include_ground_truth", true), pv("gui_color", "red")]);
  });
});

describe("errors name the file, the JSON path and what was expected", () => {
  test("a property of the wrong type", () => {
    const regex = rating({
      additionalType: "karenina:GlobalRegexTrait",
      additionalProperty: [pv("pattern", "x"), pv("case_sensitive", "maybe")],
    });
    expect(checkpointError(() => ratingToTrait(regex, CTX)).message).toBe(
      'bench.jsonld: $.rating[2].additionalProperty[1].value: expected a boolean, found a string "maybe"',
    );
  });

  test("an invalid regex pattern points at the pattern property", () => {
    const regex = rating({
      additionalType: "karenina:GlobalRegexTrait",
      additionalProperty: [pv("pattern", "[0-9")],
    });
    const error = checkpointError(() => ratingToTrait(regex, CTX));
    expect(error.jsonPath).toBe("$.rating[2].additionalProperty[0].value");
    expect(error.message).toContain(
      'regex trait "t": field "pattern": Invalid regex pattern: unterminated character set',
    );
  });

  test("a literal trait without classes points at the rating", () => {
    const literal = rating({
      additionalType: "karenina:GlobalLLMRubricTrait",
      additionalProperty: [pv("kind", "literal")],
    });
    expect(checkpointError(() => ratingToTrait(literal, CTX)).message).toBe(
      `bench.jsonld: $.rating[2]: llm trait "t": field "classes": classes field is required when kind='literal'`,
    );
  });

  test("an agentic rating without description points at the description", () => {
    const agentic = rating({ additionalType: "karenina:QuestionSpecificAgenticRubricTrait" });
    expect(checkpointError(() => ratingToTrait(agentic, CTX)).jsonPath).toBe("$.rating[2].description");
  });

  test("a metric rating without metrics is refused", () => {
    const metric = rating({ additionalType: "karenina:GlobalMetricRubricTrait" });
    const error = checkpointError(() => ratingToTrait(metric, CTX));
    expect(error.message).toContain("At least one metric must be specified");
  });

  test("a malformed template kind", () => {
    const bad = rating({
      additionalType: "karenina:GlobalLLMRubricTrait",
      additionalProperty: [pv("kind", { type: "template" })],
    });
    expect(checkpointError(() => ratingToTrait(bad, CTX)).message).toBe(
      'bench.jsonld: $.rating[2].additionalProperty[0].value: expected a kind name or {"type": "template", "schema": {...}}, found an object',
    );
  });
});

describe("rating types", () => {
  test("scope, dynamic flag and trait model are read off the additionalType", () => {
    expect(ratingScope("karenina:GlobalLLMRubricTrait")).toBe("global");
    expect(ratingScope("karenina:QuestionSpecificDynamicRubricTrait")).toBe("question");
    expect(ratingTraitType("karenina:QuestionSpecificRubricTrait")).toBe("llm");
    expect(ratingTraitType("karenina:GlobalMetricRubricTrait")).toBe("metric");
    expect(ratingTraitType("karenina:GlobalDynamicRubricTrait")).toBeNull();
    const of = (additionalType: Rating["additionalType"]) => rating({ additionalType });
    expect(isGlobalTraitRating(of("karenina:GlobalRegexTrait"))).toBe(true);
    expect(isGlobalTraitRating(of("karenina:GlobalDynamicRubricTrait"))).toBe(false);
    expect(isQuestionTraitRating(of("karenina:QuestionSpecificCallableTrait"))).toBe(true);
    expect(isQuestionTraitRating(of("karenina:GlobalCallableTrait"))).toBe(false);
  });
});

describe("dynamic rubric ratings", () => {
  test("are written with dynamic_trait_type and a second summary, and read back", () => {
    const trait = parseRubricTrait({ name: "mentions_dose", kind: "boolean", summary: "dosage" }, "llm");
    const written = dynamicTraitToRating(trait);
    expect(written.additionalType).toBe("karenina:GlobalDynamicRubricTrait");
    expect(written.additionalProperty?.filter((p) => p.name === "summary")).toHaveLength(2);
    expect(written.additionalProperty?.slice(-2)).toEqual([
      pv("dynamic_trait_type", "llm"),
      pv("summary", "dosage"),
    ]);
    expect(ratingToDynamicTrait(written, CTX).trait).toEqual(trait);
  });

  test.each(EVERY_KIND.filter(([, type]) => type !== "llm"))(
    "%s round-trips as a dynamic trait",
    (_l, type, input) => {
      const trait = parseRubricTrait({ summary: "concept", ...input }, type);
      expect(ratingToDynamicTrait(dynamicTraitToRating(trait, "question"), CTX).trait).toEqual(trait);
    },
  );

  test("an unknown dynamic_trait_type is skipped with a warning", () => {
    const odd = rating({
      additionalType: "karenina:GlobalDynamicRubricTrait",
      additionalProperty: [pv("dynamic_trait_type", "vibes")],
    });
    const decoded = ratingToDynamicTrait(odd, CTX);
    expect(decoded.trait).toBeNull();
    expect(decoded.warnings[0]).toContain('unknown dynamic_trait_type "vibes"');
  });

  test("are refused by the normal reader", () => {
    const dynamic = rating({ additionalType: "karenina:GlobalDynamicRubricTrait" });
    expect(checkpointError(() => ratingToTrait(dynamic, CTX)).jsonPath).toBe("$.rating[2].additionalType");
  });
});

describe("deep-judgment stripping", () => {
  const llmRating = rating({
    additionalType: "karenina:GlobalLLMRubricTrait",
    additionalProperty: [
      pv("deep_judgment_enabled", true),
      pv("kind", "literal"),
      pv("deep_judgment_max_excerpts", 3),
    ],
  });

  test("removes deep_judgment_* properties from LLM ratings, on a copy", () => {
    expect(stripDeepJudgment(llmRating).additionalProperty).toEqual([pv("kind", "literal")]);
    expect(llmRating.additionalProperty).toHaveLength(3);
  });

  test("drops additionalProperty when nothing remains", () => {
    const only = rating({
      additionalType: "karenina:GlobalRubricTrait",
      additionalProperty: [pv("deep_judgment_enabled", false)],
    });
    expect(stripDeepJudgment(only)).not.toHaveProperty("additionalProperty");
  });

  test("leaves dynamic and other ratings alone", () => {
    const dynamic = rating({
      additionalType: "karenina:GlobalDynamicRubricTrait",
      additionalProperty: [pv("deep_judgment_enabled", true)],
    });
    expect(stripDeepJudgment(dynamic)).toEqual(dynamic);
  });
});

describe("legacy global trait properties", () => {
  test("are read from JSON text, with regex invert as invert_result", () => {
    const traits = readLegacyGlobalTraits([
      pv("benchmark_format_version", "3.0.0-jsonld"),
      pv(
        "global_regex_rubric_traits",
        JSON.stringify([{ name: "cites", pattern: "\\[\\d+\\]", invert: true }]),
      ),
      pv(
        "global_metric_rubric_traits",
        JSON.stringify([{ name: "m", metrics: ["recall"], tp_instructions: ["x"] }]),
      ),
      pv("global_callable_rubric_traits", "not json"),
    ]);
    expect(traits.map((trait) => [trait.type, trait.name])).toEqual([
      ["regex", "cites"],
      ["metric", "m"],
    ]);
    expect(traits[0]).toMatchObject({ invert_result: true });
  });

  test("a bad trait dict is an error naming the property", () => {
    const error = checkpointError(() =>
      readLegacyGlobalTraits(
        [pv("global_regex_rubric_traits", JSON.stringify([{ name: "x", pattern: "(" }]))],
        "b.jsonld",
      ),
    );
    expect(error.message).toMatch(/^b\.jsonld: \$\.additionalProperty\[0\]\.value\[0\]: regex trait "x"/);
  });
});

const FIXTURE = fileURLToPath(
  new URL("../../../../../shared/conformance/checkpoints/with_rubrics.jsonld", import.meta.url),
);
const fixtureMissing = !existsSync(FIXTURE);

describe.skipIf(fixtureMissing)(
  fixtureMissing
    ? `with_rubrics.jsonld (skipped: conformance file not found at ${FIXTURE})`
    : "with_rubrics.jsonld",
  () => {
    const globalRatings = (): Rating[] =>
      (JSON.parse(readFileSync(FIXTURE, "utf8")) as { rating: unknown[] }).rating.map((r) =>
        RatingSchema.parse(r),
      );
    const decodeAll = () =>
      globalRatings().map((r, index) =>
        ratingToTrait(r, { file: "with_rubrics.jsonld", jsonPath: `$.rating[${index}]` }),
      );

    test("the seven global ratings decode to the expected kinds", () => {
      expect(decodeAll().map(({ trait }) => [trait.name, traitKindLabel(trait)])).toEqual([
        ["Clarity", "llm_score"],
        ["Accuracy", "llm_boolean"],
        ["Completeness", "llm_score"],
        ["HasCitations", "regex"],
        ["HasNumbers", "regex"],
        ["ContainsCitations", "callable"],
        ["ResponseLength", "callable"],
      ]);
    });

    test("they re-encode to the same JSON, modulo the listed differences", () => {
      // Differences from the file, all in the three LLM ratings (Clarity, Accuracy, Completeness):
      // 1. Deep-judgment stripping on save removes deep_judgment_enabled, deep_judgment_excerpt_enabled and
      //    deep_judgment_search_enabled (so both sides are compared stripped; the writer puts them first).
      // 2. The writer adds min_score 1 / max_score 5: the model defaults, which the original always writes.
      const LLM_DEFAULT_BOUNDS = [pv("min_score", 1), pv("max_score", 5)];
      const decoded = decodeAll();
      const expected = globalRatings().map((original) => {
        const stripped = stripDeepJudgment(original);
        if (ratingTraitType(original.additionalType) !== "llm") return stripped;
        return {
          ...stripped,
          additionalProperty: [...(stripped.additionalProperty ?? []), ...LLM_DEFAULT_BOUNDS],
        };
      });
      const reencoded = decoded.map(({ trait, unknownProperties, ...kept }) =>
        stripDeepJudgment(
          traitToRating(trait, "global", { "@id": kept["@id"], extraProperties: unknownProperties }),
        ),
      );
      expect(reencoded.map((r) => JSON.stringify(r))).toEqual(expected.map((r) => JSON.stringify(r)));
    });

    test("the deep-judgment settings of the file survive in memory", () => {
      expect(decodeAll()[0]?.trait).toMatchObject({
        deep_judgment_enabled: false,
        deep_judgment_excerpt_enabled: false,
        deep_judgment_search_enabled: false,
      });
    });
  },
);
