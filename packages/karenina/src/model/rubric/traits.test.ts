import { describe, expect, test } from "vitest";
import { thrown } from "../../test-support/thrown.js";
import {
  AgenticTraitSchema,
  CallableTraitSchema,
  LlmTraitSchema,
  MetricTraitSchema,
  parseRubricTrait,
  RegexTraitSchema,
  RubricError,
  RubricTraitSchema,
  traitKindLabel,
} from "./index.js";

const rubricError = (run: () => unknown): RubricError => thrown(RubricError, run);

const TEMPLATE = { type: "template", schema: { title: "Tone", properties: { formal: { type: "boolean" } } } };
const TWO_CLASSES = { low: "Not at all", high: "Very much" };

describe("LLM traits", () => {
  test("defaults follow the original, including 1–5 bounds on boolean traits", () => {
    const trait = LlmTraitSchema.parse({ name: "accurate", kind: "boolean" });
    expect(trait).toEqual({
      type: "llm",
      name: "accurate",
      description: null,
      summary: null,
      kind: "boolean",
      min_score: 1,
      max_score: 5,
      classes: null,
      deep_judgment_enabled: false,
      deep_judgment_excerpt_enabled: true,
      deep_judgment_max_excerpts: null,
      deep_judgment_fuzzy_match_threshold: null,
      deep_judgment_excerpt_retry_attempts: null,
      deep_judgment_search_enabled: false,
      include_ground_truth: false,
      higher_is_better: true,
    });
  });

  test("a literal trait's range is forced to 0 … n−1 whatever was given", () => {
    const trait = LlmTraitSchema.parse({
      name: "tone",
      kind: "literal",
      classes: TWO_CLASSES,
      min_score: 3,
      max_score: 9,
    });
    expect([trait.min_score, trait.max_score]).toEqual([0, 1]);
  });

  test("a literal trait without classes names the field", () => {
    expect(rubricError(() => parseRubricTrait({ name: "tone", kind: "literal" }, "llm")).message).toBe(
      `llm trait "tone": field "classes": classes field is required when kind='literal'`,
    );
  });

  test.each([
    [{ only: "one" }, "Literal trait must have at least 2 classes"],
    [
      Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`c${i}`, "d"])),
      "cannot have more than 20 classes",
    ],
    [{ " ": "blank", b: "B" }, "Class names cannot be empty"],
    [{ a: "A", b: "  " }, "Description for class 'b' cannot be empty"],
    [{ Formal: "F", formal: "f" }, "Duplicate class name (case-insensitive): 'formal'"],
  ])("classes %j are refused: %s", (classes, message) => {
    const error = rubricError(() => parseRubricTrait({ name: "tone", kind: "literal", classes }, "llm"));
    expect(error.field).toBe("classes");
    expect(error.reason).toContain(message);
  });

  test("a template-kind trait refuses an explicit higher_is_better and deep judgment", () => {
    expect(
      rubricError(() => parseRubricTrait({ name: "t", kind: TEMPLATE, higher_is_better: true }, "llm")).field,
    ).toBe("higher_is_better");
    const deep = rubricError(() =>
      parseRubricTrait(
        { name: "t", kind: TEMPLATE, higher_is_better: null, deep_judgment_enabled: true },
        "llm",
      ),
    );
    expect(deep.field).toBe("deep_judgment_enabled");
  });

  test("a template-kind trait with higher_is_better omitted keeps the default true (the original's quirk)", () => {
    expect(LlmTraitSchema.parse({ name: "t", kind: TEMPLATE }).higher_is_better).toBe(true);
    expect(
      LlmTraitSchema.parse({ name: "t", kind: TEMPLATE, higher_is_better: null }).higher_is_better,
    ).toBeNull();
  });

  test("a template kind needs its schema, and other kinds are refused", () => {
    expect(rubricError(() => parseRubricTrait({ name: "t", kind: { type: "template" } }, "llm")).field).toBe(
      "kind",
    );
    expect(rubricError(() => parseRubricTrait({ name: "t", kind: "rating" }, "llm")).reason).toContain(
      '"boolean", "score", "literal"',
    );
  });

  test("unknown keys are refused by name", () => {
    const error = rubricError(() => parseRubricTrait({ name: "t", kind: "score", weight: 2 }, "llm"));
    expect(error.message).toContain('unknown field "weight"');
  });
});

describe("regex traits", () => {
  test("a valid Python pattern parses with the defaults", () => {
    expect(RegexTraitSchema.parse({ name: "cites", pattern: String.raw`(?i)\[\d+\]` })).toEqual({
      type: "regex",
      name: "cites",
      description: null,
      summary: null,
      pattern: String.raw`(?i)\[\d+\]`,
      case_sensitive: true,
      invert_result: false,
      higher_is_better: true,
    });
  });

  test("an invalid or untranslatable pattern is refused with the reason", () => {
    const invalid = rubricError(() => parseRubricTrait({ name: "cites", pattern: "[0-9" }, "regex"));
    expect(invalid.message).toContain(
      `regex trait "cites": field "pattern": Invalid regex pattern: unterminated`,
    );
    const verbose = rubricError(() => parseRubricTrait({ name: "cites", pattern: "(?x) a" }, "regex"));
    expect(verbose.reason).toContain("verbose mode");
  });
});

describe("callable traits", () => {
  test("the serialized function is kept verbatim", () => {
    const code = "ZGVmIGYoeCk6CiAgICByZXR1cm4gVHJ1ZQ==";
    expect(CallableTraitSchema.parse({ name: "f", kind: "boolean", callable_code: code }).callable_code).toBe(
      code,
    );
  });

  test("text Python's base64 decoder refuses is refused", () => {
    expect(
      rubricError(() => parseRubricTrait({ name: "f", kind: "boolean", callable_code: "YQ" }, "callable"))
        .field,
    ).toBe("callable_code");
    expect(
      CallableTraitSchema.parse({ name: "f", kind: "boolean", callable_code: "Y Q = =" }).callable_code,
    ).toBe("Y Q = =");
  });

  test("a literal callable gets 0 / n−1 only where its bounds are null", () => {
    const base = { name: "f", kind: "literal", callable_code: "", classes: TWO_CLASSES } as const;
    const derived = CallableTraitSchema.parse(base);
    expect([derived.min_score, derived.max_score]).toEqual([0, 1]);
    const explicit = CallableTraitSchema.parse({ ...base, max_score: 7 });
    expect([explicit.min_score, explicit.max_score]).toEqual([0, 7]);
  });

  test("a literal callable without classes is refused", () => {
    expect(
      rubricError(() => parseRubricTrait({ name: "f", kind: "literal", callable_code: "" }, "callable"))
        .reason,
    ).toBe("classes field is required when kind='literal'");
  });
});

describe("metric traits", () => {
  const valid = { name: "coverage", metrics: ["precision", "recall"], tp_instructions: ["COX-1"] };

  test("defaults: tp_only, repeated extraction, no directionality", () => {
    const trait = MetricTraitSchema.parse(valid);
    expect([trait.evaluation_mode, trait.repeated_extraction, trait.higher_is_better]).toEqual([
      "tp_only",
      true,
      null,
    ]);
  });

  test.each([
    [{ metrics: [] }, "metrics", "At least one metric"],
    [{ metrics: ["precision", "mcc"] }, "metrics", "Invalid metric names: mcc"],
    [{ tp_instructions: [] }, "tp_instructions", "TP instructions must be provided"],
    [{ evaluation_mode: "full_matrix" }, "tn_instructions", "TN instructions must be provided"],
    [{ metrics: ["specificity"] }, "metrics", "not available in tp_only mode"],
  ])("%j is refused on %s", (change, field, message) => {
    const error = rubricError(() => parseRubricTrait({ ...valid, ...change }, "metric"));
    expect(error.field).toBe(field);
    expect(error.reason).toContain(message);
  });

  test("specificity and accuracy are allowed in full_matrix mode", () => {
    const trait = { ...valid, evaluation_mode: "full_matrix", metrics: ["accuracy"], tn_instructions: ["x"] };
    expect(MetricTraitSchema.parse(trait).metrics).toEqual(["accuracy"]);
  });
});

describe("agentic traits", () => {
  const base = { name: "tests_pass", description: "Do the tests pass?" };

  test("defaults follow spec 03 §9.5; true is injected for scalar kinds", () => {
    const trait = AgenticTraitSchema.parse({ ...base, kind: "score" });
    expect(trait).toMatchObject({
      higher_is_better: true,
      min_score: 1,
      max_score: 5,
      context_mode: "trace_and_workspace",
      materialize_trace: false,
      persist_trace: false,
      max_turns: 15,
      timeout_seconds: 120,
      model_override: null,
    });
  });

  test("a template kind needs higher_is_better given as null", () => {
    expect(rubricError(() => parseRubricTrait({ ...base, kind: TEMPLATE }, "agentic")).reason).toBe(
      "Field required",
    );
    expect(
      rubricError(() => parseRubricTrait({ ...base, kind: TEMPLATE, higher_is_better: false }, "agentic"))
        .field,
    ).toBe("higher_is_better");
    expect(
      AgenticTraitSchema.parse({ ...base, kind: TEMPLATE, higher_is_better: null }).higher_is_better,
    ).toBeNull();
  });

  test("description is required and trace materialisation needs the trace", () => {
    expect(
      rubricError(() => parseRubricTrait({ name: "x", description: "", kind: "boolean" }, "agentic")).field,
    ).toBe("description");
    const workspaceOnly = {
      ...base,
      kind: "boolean",
      context_mode: "workspace_only",
      materialize_trace: true,
    };
    expect(rubricError(() => parseRubricTrait(workspaceOnly, "agentic")).field).toBe("materialize_trace");
  });

  test("a literal agentic trait is forced to 0 … n−1", () => {
    const trait = AgenticTraitSchema.parse({ ...base, kind: "literal", classes: { a: "A", b: "B", c: "C" } });
    expect([trait.min_score, trait.max_score]).toEqual([0, 2]);
  });
});

describe("the trait union", () => {
  test("dispatches on type and labels every kind", () => {
    const traits = [
      { type: "llm", name: "a", kind: "boolean" },
      { type: "llm", name: "b", kind: "score" },
      { type: "llm", name: "c", kind: "literal", classes: TWO_CLASSES },
      { type: "llm", name: "d", kind: TEMPLATE },
      { type: "regex", name: "e", pattern: "x" },
      { type: "callable", name: "f", kind: "boolean", callable_code: "" },
      { type: "metric", name: "g", metrics: ["recall"], tp_instructions: ["x"] },
      { type: "agentic", name: "h", description: "d", kind: "boolean" },
    ].map((input) => traitKindLabel(RubricTraitSchema.parse(input)));
    expect(traits).toEqual([
      "llm_boolean",
      "llm_score",
      "llm_literal",
      "llm_template",
      "regex",
      "callable",
      "metric",
      "agentic",
    ]);
  });

  test("without a type, a trait must be parsed through its kind's schema", () => {
    expect(rubricError(() => parseRubricTrait({ name: "e", pattern: "x" })).field).toBe("type");
    expect(parseRubricTrait({ name: "e", pattern: "x" }, "regex").type).toBe("regex");
  });
});
