import type { RubricDeepJudgmentSettings } from "../../rubrics/index.js";
import type { VerificationConfig } from "../config/index.js";

/** The run's rubric deep-judgment settings, as the trait resolver reads them. */
export function rubricDeepJudgmentSettings(config: VerificationConfig): RubricDeepJudgmentSettings {
  return {
    mode: config.deep_judgment_rubric_mode,
    globalExcerpts: config.deep_judgment_rubric_global_excerpts,
    maxExcerptsDefault: config.deep_judgment_rubric_max_excerpts_default,
    fuzzyMatchThresholdDefault: config.deep_judgment_rubric_fuzzy_match_threshold_default,
    excerptRetryAttemptsDefault: config.deep_judgment_rubric_excerpt_retry_attempts_default,
    customConfig: config.deep_judgment_rubric_config,
  };
}
