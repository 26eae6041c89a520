import { describe, expect, test } from "vitest";
import { thrown } from "../../test-support/thrown.js";
import {
  isEmptyRubric,
  mergeRubrics,
  parseDynamicRubric,
  parseRubric,
  parseRubricTrait,
  RubricError,
  type RubricTrait,
  rubricFromTraits,
  rubricTraitNames,
  rubricTraits,
  toPythonRubricDump,
  validateRubricForReadiness,
} from "./index.js";

const rubricError = (run: () => unknown): RubricError => thrown(RubricError, run);

const llm = (name: string, kind: "boolean" | "score" = "score") => parseRubricTrait({ name, kind }, "llm");
const regex = (name: string) => parseRubricTrait({ name, pattern: "x" }, "regex");
const metric = (name: string) =>
  parseRubricTrait({ name, metrics: ["recall"], tp_instructions: ["x"] }, "metric");

/** A Python `Rubric.model_dump()`: no `type` keys. */
const PYTHON_DUMP = {
  llm_traits: [
    {
      name: "clarity",
      description: "How clear?",
      summary: null,
      kind: "score",
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
    },
  ],
  regex_traits: [
    {
      name: "has_citation",
      description: null,
      summary: null,
      pattern: String.raw`\[\d+\]`,
      case_sensitive: true,
      invert_result: false,
      higher_is_better: true,
    },
  ],
  callable_traits: [
    {
      name: "short",
      description: null,
      summary: null,
      kind: "boolean",
      callable_code: "gASVAAAAAAAAAAA=",
      min_score: null,
      max_score: null,
      invert_result: false,
      classes: null,
      higher_is_better: true,
    },
  ],
  metric_traits: [
    {
      name: "coverage",
      description: null,
      summary: null,
      evaluation_mode: "tp_only",
      metrics: ["recall"],
      tp_instructions: ["COX-1"],
      tn_instructions: [],
      repeated_extraction: true,
      higher_is_better: null,
    },
  ],
  agentic_traits: [
    {
      name: "tests_pass",
      description: "Do the tests pass?",
      summary: null,
      kind: "boolean",
      higher_is_better: true,
      min_score: 1,
      max_score: 5,
      classes: null,
      context_mode: "trace_and_workspace",
      materialize_trace: false,
      persist_trace: false,
      max_turns: 15,
      timeout_seconds: 120,
      model_override: null,
    },
  ],
};

describe("Rubric", () => {
  test("a Python dump without type keys parses, each list with its kind", () => {
    const rubric = parseRubric(PYTHON_DUMP);
    expect(rubricTraits(rubric).map((trait) => trait.type)).toEqual([
      "llm",
      "regex",
      "callable",
      "metric",
      "agentic",
    ]);
  });

  test("the Python dump of a parsed rubric is the original dump, key order included", () => {
    expect(JSON.stringify(toPythonRubricDump(parseRubric(PYTHON_DUMP)))).toBe(JSON.stringify(PYTHON_DUMP));
  });

  test("lists default to empty and unknown keys are refused", () => {
    expect(isEmptyRubric(parseRubric({}))).toBe(true);
    expect(rubricError(() => parseRubric({ llm_traits: [], extra_traits: [] })).message).toContain(
      'unknown field "extra_traits"',
    );
  });

  test("an invalid trait inside a rubric is named with its list position's trait name", () => {
    const error = rubricError(() => parseRubric({ regex_traits: [{ name: "cites", pattern: "(" }] }));
    expect(error.message).toMatch(/^regex trait "cites": field "pattern": Invalid regex pattern/);
  });

  test("a name used twice in one list is refused", () => {
    const error = rubricError(() => rubricFromTraits([llm("clarity"), llm("clarity", "boolean")]));
    expect(error.message).toBe(
      `llm trait "clarity": field "name": Duplicate llm trait name 'clarity' within the same rubric; trait names must be unique`,
    );
  });

  test("a name used in two lists is refused", () => {
    expect(rubricError(() => rubricFromTraits([llm("clarity"), regex("clarity")])).reason).toContain(
      "Duplicate trait name 'clarity' across different trait types (llm and regex)",
    );
  });

  test("a dotted name is refused (dots separate template-kind result keys)", () => {
    expect(
      rubricError(() => parseRubric({ regex_traits: [{ name: "a.b", pattern: "x" }] })).reason,
    ).toContain("cannot contain '.'");
  });

  test("traits are sorted into lists and listed llm, regex, callable, metric, agentic", () => {
    const rubric = rubricFromTraits([metric("m"), regex("r"), llm("l")]);
    expect(rubricTraitNames(rubric)).toEqual(["l", "r", "m"]);
    expect(rubricFromTraits(null)).toBeNull();
    expect(rubricTraits(null)).toEqual([]);
  });

  test("a dynamic rubric needs a concept (summary or description) for every trait", () => {
    expect(
      rubricError(() => parseDynamicRubric({ llm_traits: [{ name: "x", kind: "boolean" }] })).reason,
    ).toContain("Dynamic rubric trait 'x' has neither summary nor description");
    expect(
      parseDynamicRubric({ llm_traits: [{ name: "x", kind: "boolean", summary: "X" }] }).llm_traits,
    ).toHaveLength(1);
  });
});

describe("merging the global rubric with a question's rubric", () => {
  const names = (traits: RubricTrait[]) => traits.map((trait) => `${trait.type}:${trait.name}`);

  test("lists are concatenated, global first, with provenance", () => {
    const merged = mergeRubrics(
      rubricFromTraits([llm("clarity"), regex("cites")]),
      rubricFromTraits([llm("tone")]),
    );
    expect(names(rubricTraits(merged.rubric))).toEqual(["llm:clarity", "llm:tone", "regex:cites"]);
    expect(merged.provenance).toEqual({ clarity: "global", cites: "global", tone: "question_specific" });
    expect(merged.warnings).toEqual([]);
  });

  test("a question-specific trait replaces the global trait of the same name, with a warning", () => {
    const merged = mergeRubrics(
      rubricFromTraits([llm("clarity"), llm("depth")]),
      rubricFromTraits([llm("clarity", "boolean")]),
    );
    expect(merged.rubric?.llm_traits.map((trait) => [trait.name, trait.kind])).toEqual([
      ["depth", "score"],
      ["clarity", "boolean"],
    ]);
    expect(merged.provenance.clarity).toBe("question_specific");
    expect(merged.warnings).toEqual([
      'question-specific llm trait "clarity" replaces the global llm trait of the same name',
    ]);
  });

  test("the replacement also applies across trait types", () => {
    const merged = mergeRubrics(rubricFromTraits([llm("cites")]), rubricFromTraits([regex("cites")]));
    expect(names(rubricTraits(merged.rubric))).toEqual(["regex:cites"]);
    expect(merged.warnings[0]).toContain('"cites"');
  });

  test("when one side is missing the other is used as is", () => {
    const global = rubricFromTraits([llm("clarity")]);
    expect(mergeRubrics(global, null)).toEqual({
      rubric: global,
      provenance: { clarity: "global" },
      warnings: [],
    });
    const question = rubricFromTraits([regex("cites")]);
    expect(mergeRubrics(null, question).rubric).toBe(question);
    expect(mergeRubrics(null, null).rubric).toBeNull();
  });
});

describe("readiness checks", () => {
  test("global problems name the trait; question problems name the question", () => {
    const rubric = parseRubric({
      llm_traits: [{ name: "clarity", description: "How clear?", kind: "score", max_score: null }],
      regex_traits: [{ name: "empty", description: "Nothing", pattern: "" }],
    });
    expect(validateRubricForReadiness(rubric, "global")).toEqual([
      { source: "clarity", error: "Score trait 'clarity' needs both min_score and max_score" },
      { source: "empty", error: "Regex trait 'empty' has an empty pattern" },
    ]);
    expect(validateRubricForReadiness(rubricFromTraits([regex("cites")]), "question:q1")).toEqual([
      { source: "question:q1", error: "Trait 'cites' is missing a description" },
    ]);
  });

  test("agentic traits and missing rubrics raise nothing", () => {
    const agentic = parseRubric({
      agentic_traits: [{ name: "a", description: "d", kind: "score", max_score: null }],
    });
    expect(validateRubricForReadiness(agentic, "global")).toEqual([]);
    expect(validateRubricForReadiness(null, "global")).toEqual([]);
  });
});

test("a score trait whose min is not below its max is a readiness problem", () => {
  const rubric = parseRubric({
    llm_traits: [{ name: "clarity", kind: "score", description: "d", min_score: 5, max_score: 5 }],
  });
  expect(validateRubricForReadiness(rubric, "global")).toEqual([
    { source: "clarity", error: "Score trait 'clarity' has min_score (5) ≥ max_score (5)" },
  ]);
});
