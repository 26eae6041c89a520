import { describe, expect, test } from "vitest";
import { type LlmTrait, parseRubricTrait } from "../../model/rubric/index.js";
import {
  DEFAULT_RUBRIC_DEEP_JUDGMENT_SETTINGS,
  DeepJudgmentRubricCustomConfigSchema,
  effectiveDeepJudgment,
  type RubricDeepJudgmentSettings,
  resolveTraitDeepJudgment,
} from "./config.js";
import {
  buildDeepJudgmentRubricBlock,
  type DeepJudgmentTraitOutcome,
  failedDeepJudgmentTrait,
} from "./trait-result.js";

const llm = (fields: Record<string, unknown>) =>
  parseRubricTrait({ kind: "score", ...fields }, "llm") as LlmTrait;
const plain = llm({ name: "clarity" });
const optedIn = llm({ name: "depth", deep_judgment_enabled: true, deep_judgment_max_excerpts: 4 });
const settings = (overrides: Partial<RubricDeepJudgmentSettings>): RubricDeepJudgmentSettings => ({
  ...DEFAULT_RUBRIC_DEEP_JUDGMENT_SETTINGS,
  ...overrides,
});

describe("deep-judgment configuration per mode (spec 03 §10.1)", () => {
  test("disabled: off, except traits that opted in, which keep their own settings", () => {
    const mode = settings({ mode: "disabled" });
    expect(resolveTraitDeepJudgment(plain, "q1", mode).deep_judgment_enabled).toBe(false);
    expect(resolveTraitDeepJudgment(optedIn, "q1", mode)).toEqual(optedIn);
  });

  test("enable_all: on for every trait with the run's rubric defaults, search off", () => {
    const resolved = resolveTraitDeepJudgment(
      plain,
      "q1",
      settings({ mode: "enable_all", globalExcerpts: false }),
    );
    expect(resolved).toMatchObject({
      deep_judgment_enabled: true,
      deep_judgment_excerpt_enabled: false,
      deep_judgment_max_excerpts: 7,
      deep_judgment_fuzzy_match_threshold: 0.8,
      deep_judgment_excerpt_retry_attempts: 2,
      deep_judgment_search_enabled: false,
    });
    expect(resolved).not.toBe(plain);
    expect(plain.deep_judgment_enabled).toBe(false);
  });

  test("use_checkpoint: exactly the trait's stored settings", () => {
    expect(resolveTraitDeepJudgment(optedIn, "q1", settings({ mode: "use_checkpoint" }))).toEqual(optedIn);
  });

  test("custom: question-specific entry first, then global, else off", () => {
    const customConfig = DeepJudgmentRubricCustomConfigSchema.parse({
      global: { clarity: { max_excerpts: 2 } },
      question_specific: { q2: { clarity: { excerpt_enabled: false, search_enabled: true } } },
    });
    const mode = settings({ mode: "custom", customConfig });
    expect(resolveTraitDeepJudgment(plain, "q1", mode)).toMatchObject({
      deep_judgment_enabled: true,
      deep_judgment_excerpt_enabled: true,
      deep_judgment_max_excerpts: 2,
    });
    expect(resolveTraitDeepJudgment(plain, "q2", mode)).toMatchObject({
      deep_judgment_enabled: true,
      deep_judgment_excerpt_enabled: false,
      deep_judgment_max_excerpts: null,
      deep_judgment_search_enabled: true,
    });
    expect(resolveTraitDeepJudgment(optedIn, "q1", mode).deep_judgment_enabled).toBe(false);
  });

  test("null values fall back to the run's template-level settings (3 excerpts, not 7)", () => {
    expect(effectiveDeepJudgment(llm({ name: "x", deep_judgment_enabled: true }))).toEqual({
      enabled: true,
      excerptEnabled: true,
      maxExcerpts: 3,
      fuzzyMatchThreshold: 0.8,
      excerptRetryAttempts: 2,
      searchEnabled: false,
    });
    expect(
      effectiveDeepJudgment(optedIn, { maxExcerpts: 5, fuzzyMatchThreshold: 0.9, excerptRetryAttempts: 0 }),
    ).toMatchObject({
      maxExcerpts: 4,
      fuzzyMatchThreshold: 0.9,
      excerptRetryAttempts: 0,
    });
  });
});

describe("the deep_judgment_rubric result block (spec 03 §10.5)", () => {
  const passed: DeepJudgmentTraitOutcome = {
    traitName: "clarity",
    score: 4,
    excerpts: [{ text: "BCL-2", confidence: "high", similarity_score: 1, hallucination_risk: "low" }],
    reasoning: "Clear and direct.",
    metadata: {
      stages_completed: [
        "excerpt_extraction",
        "hallucination_assessment",
        "reasoning_generation",
        "score_extraction",
      ],
      model_calls: 5,
      had_excerpts: true,
      excerpt_retry_count: 1,
      excerpt_validation_failed: false,
    },
    hallucinationRisk: { overall_risk: "low", per_excerpt_risks: ["low"] },
  };
  const noExcerpts: DeepJudgmentTraitOutcome = {
    traitName: "depth",
    score: null,
    excerpts: [],
    reasoning: null,
    metadata: {
      stages_completed: [],
      model_calls: 3,
      had_excerpts: false,
      excerpt_retry_count: 2,
      excerpt_validation_failed: true,
    },
    hallucinationRisk: null,
  };

  test("collects scores, excerpts, reasoning, metadata, auto-failed traits and totals", () => {
    const block = buildDeepJudgmentRubricBlock(
      [passed, noExcerpts, failedDeepJudgmentTrait("tone", "boom")],
      { cites: true },
    );
    expect(block).toEqual({
      deep_judgment_rubric_performed: true,
      extracted_rubric_excerpts: { clarity: passed.excerpts, depth: [] },
      rubric_trait_reasoning: { clarity: "Clear and direct." },
      deep_judgment_rubric_scores: { clarity: 4 },
      standard_rubric_scores: { cites: true },
      trait_metadata: {
        clarity: passed.metadata,
        depth: noExcerpts.metadata,
        tone: { stages_completed: [], model_calls: 0, error: "boom" },
      },
      traits_without_valid_excerpts: ["depth", "tone"],
      rubric_hallucination_risk_assessment: { clarity: { overall_risk: "low", per_excerpt_risks: ["low"] } },
      total_deep_judgment_model_calls: 8,
      total_traits_evaluated: 3,
      total_excerpt_retries: 3,
    });
  });

  test("the risk assessment is null when no trait was assessed", () => {
    expect(buildDeepJudgmentRubricBlock([noExcerpts], {}).rubric_hallucination_risk_assessment).toBeNull();
  });
});
