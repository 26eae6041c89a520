export { callableRuntime } from "./callable-runtime.js";
export {
  type DeepJudgmentServices,
  type DeepJudgmentTraitInput,
  evaluateTraitWithDeepJudgment,
} from "./deep-judgment.js";
export {
  excerptExtractionRequest,
  hallucinationRequest,
  isBooleanTrait,
  reasoningRequest,
  scoreExtractionRequest,
} from "./deep-judgment-prompts.js";
export { rubricDeepJudgmentSettings } from "./deep-judgment-settings.js";
export {
  type DynamicResolution,
  DynamicRubricConflictError,
  PRESENCE_USAGE_STAGE,
  resolveDynamicRubric,
} from "./dynamic-rubric.js";
export {
  evaluateRubric,
  type RubricEvaluation,
  type RubricEvaluationRequest,
  type RubricEvaluationServices,
} from "./evaluate-rubric.js";
export {
  anyObjectSchema,
  createRubricJudge,
  errorMessage,
  isCancellation,
  type JudgeRequest,
  RUBRIC_USAGE_STAGE,
  type RubricJudge,
  type RubricJudgeOptions,
} from "./judge.js";
export { type ExcerptSearch, excerptSearch, type SearchFunction, searchTexts } from "./search.js";
export {
  evaluateLlmTraits,
  evaluateMetricTraits,
  type LlmTraitResults,
  type MetricTraitResults,
  type RubricStrategy,
  type TraitErrorReporter,
} from "./standard.js";
