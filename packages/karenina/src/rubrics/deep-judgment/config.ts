import { z } from "zod";
import type { LlmTrait } from "../../model/rubric/index.js";
import { ownValue } from "../../plain-data/index.js";

/** How the run turns deep judgment on for LLM traits (spec 03 §10.1). */
export const DEEP_JUDGMENT_RUBRIC_MODES = ["disabled", "enable_all", "use_checkpoint", "custom"] as const;
export type DeepJudgmentRubricMode = (typeof DEEP_JUDGMENT_RUBRIC_MODES)[number];

/** One trait's deep-judgment settings in a `custom` configuration (the original's `DeepJudgmentTraitConfig`). */
export const DeepJudgmentTraitConfigSchema = z.strictObject({
  enabled: z.boolean().default(true),
  excerpt_enabled: z.boolean().default(true),
  max_excerpts: z.int().nullable().default(null),
  fuzzy_match_threshold: z.number().nullable().default(null),
  excerpt_retry_attempts: z.int().nullable().default(null),
  search_enabled: z.boolean().default(false),
});
export type DeepJudgmentTraitConfig = z.infer<typeof DeepJudgmentTraitConfigSchema>;

const traitConfigs = z.record(z.string(), DeepJudgmentTraitConfigSchema);

/**
 * `deep_judgment_rubric_config` for the `custom` mode (spec 04 §2.1): settings by trait name for every question
 * (`global_traits`, given as `global` in the original's files) and per question id (`question_specific`,
 * looked up first).
 * @example
 * DeepJudgmentRubricCustomConfigSchema.parse({ global: { clarity: {} } }).global_traits.clarity?.excerpt_enabled; // true
 */
export const DeepJudgmentRubricCustomConfigSchema = z.preprocess(
  (input) => {
    if (input === null || typeof input !== "object" || !("global" in input)) return input;
    const { global, ...rest } = input as Record<string, unknown>;
    return { global_traits: global, ...rest };
  },
  z.strictObject({
    global_traits: traitConfigs.default({}),
    question_specific: z.record(z.string(), traitConfigs).default({}),
  }),
);
export type DeepJudgmentRubricCustomConfig = z.infer<typeof DeepJudgmentRubricCustomConfigSchema>;

/** The run settings deep-judgment resolution reads (fields of the verification config, spec 04 §2.1). */
export interface RubricDeepJudgmentSettings {
  readonly mode: DeepJudgmentRubricMode;
  /** `deep_judgment_rubric_global_excerpts` (default true), for `enable_all`. */
  readonly globalExcerpts: boolean;
  /** `deep_judgment_rubric_max_excerpts_default` (default 7), for `enable_all`. */
  readonly maxExcerptsDefault: number;
  /** `deep_judgment_rubric_fuzzy_match_threshold_default` (default 0.80), for `enable_all`. */
  readonly fuzzyMatchThresholdDefault: number;
  /** `deep_judgment_rubric_excerpt_retry_attempts_default` (default 2), for `enable_all`. */
  readonly excerptRetryAttemptsDefault: number;
  /** `deep_judgment_rubric_config`, required by `custom`. */
  readonly customConfig: DeepJudgmentRubricCustomConfig | null;
}

/**
 * The run's template-level deep-judgment settings, which fill a trait's null values after resolution
 * (spec 03 §2.1, §10.1): not the `…_rubric_…_default` values.
 */
export interface DeepJudgmentFallbacks {
  /** `deep_judgment_max_excerpts_per_attribute` (default 3). */
  readonly maxExcerpts: number;
  /** `deep_judgment_fuzzy_match_threshold` (default 0.80). */
  readonly fuzzyMatchThreshold: number;
  /** `deep_judgment_excerpt_retry_attempts` (default 2). */
  readonly excerptRetryAttempts: number;
}

export const DEFAULT_RUBRIC_DEEP_JUDGMENT_SETTINGS: RubricDeepJudgmentSettings = {
  mode: "disabled",
  globalExcerpts: true,
  maxExcerptsDefault: 7,
  fuzzyMatchThresholdDefault: 0.8,
  excerptRetryAttemptsDefault: 2,
  customConfig: null,
};

export const DEFAULT_DEEP_JUDGMENT_FALLBACKS: DeepJudgmentFallbacks = {
  maxExcerpts: 3,
  fuzzyMatchThreshold: 0.8,
  excerptRetryAttempts: 2,
};

type DeepJudgmentFields = Pick<
  LlmTrait,
  | "deep_judgment_enabled"
  | "deep_judgment_excerpt_enabled"
  | "deep_judgment_max_excerpts"
  | "deep_judgment_fuzzy_match_threshold"
  | "deep_judgment_excerpt_retry_attempts"
  | "deep_judgment_search_enabled"
>;

const fromConfig = (config: DeepJudgmentTraitConfig): DeepJudgmentFields => ({
  deep_judgment_enabled: config.enabled,
  deep_judgment_excerpt_enabled: config.excerpt_enabled,
  deep_judgment_max_excerpts: config.max_excerpts,
  deep_judgment_fuzzy_match_threshold: config.fuzzy_match_threshold,
  deep_judgment_excerpt_retry_attempts: config.excerpt_retry_attempts,
  deep_judgment_search_enabled: config.search_enabled,
});

function resolvedFields(
  trait: LlmTrait,
  questionId: string,
  settings: RubricDeepJudgmentSettings,
): DeepJudgmentFields {
  switch (settings.mode) {
    case "disabled":
    case "use_checkpoint":
      return trait;
    case "enable_all":
      return {
        deep_judgment_enabled: true,
        deep_judgment_excerpt_enabled: settings.globalExcerpts,
        deep_judgment_max_excerpts: settings.maxExcerptsDefault,
        deep_judgment_fuzzy_match_threshold: settings.fuzzyMatchThresholdDefault,
        deep_judgment_excerpt_retry_attempts: settings.excerptRetryAttemptsDefault,
        deep_judgment_search_enabled: false,
      };
    case "custom": {
      const config = settings.customConfig;
      const entry =
        ownValue(ownValue(config?.question_specific, questionId), trait.name) ??
        ownValue(config?.global_traits, trait.name);
      return entry === undefined ? { ...trait, deep_judgment_enabled: false } : fromConfig(entry);
    }
  }
}

/**
 * A copy of an LLM trait with the deep-judgment settings the run resolves for it (spec 03 §10.1, first match
 * wins): `disabled` → off, except traits that opted in (`deep_judgment_enabled`) keep their own settings;
 * `enable_all` → on with the run's rubric defaults (search off); `use_checkpoint` → the trait's stored
 * settings; `custom` → the question-specific entry, else the global entry, else off. As in the original, the copy is not re-validated,
 * so a template-kind trait can end up with deep judgment on (it is then scored as one number).
 * @example
 * const clarity = parseRubricTrait({ name: "clarity", kind: "score" }, "llm") as LlmTrait;
 * const settings = { ...DEFAULT_RUBRIC_DEEP_JUDGMENT_SETTINGS, mode: "enable_all" as const };
 * resolveTraitDeepJudgment(clarity, "q1", settings).deep_judgment_max_excerpts; // 7
 */
export function resolveTraitDeepJudgment(
  trait: LlmTrait,
  questionId: string,
  settings: RubricDeepJudgmentSettings,
): LlmTrait {
  const fields = resolvedFields(trait, questionId, settings);
  return {
    ...trait,
    deep_judgment_enabled: fields.deep_judgment_enabled,
    deep_judgment_excerpt_enabled: fields.deep_judgment_excerpt_enabled,
    deep_judgment_max_excerpts: fields.deep_judgment_max_excerpts,
    deep_judgment_fuzzy_match_threshold: fields.deep_judgment_fuzzy_match_threshold,
    deep_judgment_excerpt_retry_attempts: fields.deep_judgment_excerpt_retry_attempts,
    deep_judgment_search_enabled: fields.deep_judgment_search_enabled,
  };
}

/** Concrete deep-judgment settings of one trait, nulls filled in. */
export interface EffectiveDeepJudgment {
  readonly enabled: boolean;
  readonly excerptEnabled: boolean;
  readonly maxExcerpts: number;
  readonly fuzzyMatchThreshold: number;
  /** Extra extraction attempts: there are `excerptRetryAttempts + 1` in all. */
  readonly excerptRetryAttempts: number;
  readonly searchEnabled: boolean;
}

/**
 * A resolved trait's settings with its null values taken from the run's template-level deep-judgment
 * settings (so a null `max_excerpts` gives 3 by default, not 7 — the original's behaviour).
 * @example
 * const clarity = parseRubricTrait({ name: "clarity", kind: "score", deep_judgment_enabled: true }, "llm") as LlmTrait;
 * effectiveDeepJudgment(clarity).maxExcerpts; // 3
 */
export function effectiveDeepJudgment(
  trait: DeepJudgmentFields,
  fallbacks: DeepJudgmentFallbacks = DEFAULT_DEEP_JUDGMENT_FALLBACKS,
): EffectiveDeepJudgment {
  return {
    enabled: trait.deep_judgment_enabled,
    excerptEnabled: trait.deep_judgment_excerpt_enabled,
    maxExcerpts: trait.deep_judgment_max_excerpts ?? fallbacks.maxExcerpts,
    fuzzyMatchThreshold: trait.deep_judgment_fuzzy_match_threshold ?? fallbacks.fuzzyMatchThreshold,
    excerptRetryAttempts: trait.deep_judgment_excerpt_retry_attempts ?? fallbacks.excerptRetryAttempts,
    searchEnabled: trait.deep_judgment_search_enabled,
  };
}
