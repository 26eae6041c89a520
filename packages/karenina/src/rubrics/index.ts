export {
  type AgenticTraitOptions,
  type CallableKindOptions,
  type CallableTraitOptions,
  type ClassesOptions,
  type DeepJudgmentOptions,
  type LlmTraitOptions,
  type MetricTraitOptions,
  type RegexTraitOptions,
  type ScoreRangeOptions,
  type TemplateTraitField,
  type TemplateTraitFieldType,
  type TemplateTraitOptions,
  type TraitOptions,
  trait,
} from "./authoring.js";
export {
  type CallableCode,
  decodeCallableCode,
  encodeJavaScriptCallable,
  JAVASCRIPT_CALLABLE_MARKER,
} from "./callable-code.js";
export {
  type CallableEvaluationOptions,
  type CallableFunction,
  type CallableRegistry,
  evaluateCallableTrait,
  type TraitOutcome,
} from "./callable-evaluation.js";
export { type CallableValue, checkCallableOutput } from "./callable-output.js";
export {
  DEEP_JUDGMENT_RUBRIC_MODES,
  DEFAULT_DEEP_JUDGMENT_FALLBACKS,
  DEFAULT_RUBRIC_DEEP_JUDGMENT_SETTINGS,
  type DeepJudgmentFallbacks,
  type DeepJudgmentRubricCustomConfig,
  DeepJudgmentRubricCustomConfigSchema,
  type DeepJudgmentRubricMode,
  type DeepJudgmentTraitConfig,
  DeepJudgmentTraitConfigSchema,
  type EffectiveDeepJudgment,
  effectiveDeepJudgment,
  type RubricDeepJudgmentSettings,
  resolveTraitDeepJudgment,
} from "./deep-judgment/config.js";
export {
  EXCERPT_CONFIDENCES,
  type ExcerptConfidence,
  ExcerptReplyError,
  type ExcerptValidation,
  type ExtractedExcerpt,
  excerptSimilarity,
  HALLUCINATION_RISKS,
  type HallucinationRisk,
  isValidExcerpt,
  MIN_EXCERPT_SIMILARITY,
  parseExcerptReply,
  type RubricExcerpt,
  type TraitHallucinationRisk,
  traitHallucinationRisk,
  validateExcerpts,
} from "./deep-judgment/excerpts.js";
export { parseFallbackScore } from "./deep-judgment/fallback-score.js";
export { findLongestMatch, type LongestMatch } from "./deep-judgment/longest-match.js";
export {
  autoFailed,
  buildDeepJudgmentRubricBlock,
  DEEP_JUDGMENT_STAGES,
  type DeepJudgmentRubricBlock,
  type DeepJudgmentStage,
  type DeepJudgmentTraitOutcome,
  failedDeepJudgmentTrait,
  type TraitDeepJudgmentMetadata,
} from "./deep-judgment/trait-result.js";
export { TraitEvaluationError } from "./errors.js";
export {
  type ReferenceGroup,
  type RubricJudgeCall,
  type RubricJudgeRequest,
  type RubricPromptContext,
  referenceGroups,
} from "./judge-request.js";
export {
  type LiteralResult,
  literalFailure,
  MISSING_FROM_RESPONSE,
  parseBatchLiteralReply,
  parseSequentialLiteralReply,
  resolveLiteralClass,
} from "./literal-replies.js";
export { batchLiteralRequests, literalLabels, sequentialLiteralRequest } from "./literal-requests.js";
export { evaluateLocalTraits, type LocalTraitResults } from "./local-evaluation.js";
export { metricTraitRequest } from "./metric-requests.js";
export {
  type ConfusionLists,
  computeMetrics,
  dedupeConfusionLists,
  emptyConfusionLists,
  evaluateMetricReply,
  type MetricOutcome,
} from "./metrics.js";
export { evaluateRegexTrait } from "./regex-evaluation.js";
export {
  type AgenticExtractionMetadata,
  AgenticExtractionMetadataSchema,
  buildRubricResult,
  getAllTraitScores,
  type RubricResultInput,
  type VerificationResultRubric,
  VerificationResultRubricSchema,
} from "./result.js";
export { assertScoreRange, scoreRangeProblem } from "./score-range.js";
export {
  normalizeBooleanVerdict,
  normalizeScore,
  normalizeTraitValue,
  parseBatchScoresReply,
  parseSequentialScoreReply,
} from "./score-replies.js";
export { batchScoreRequests, scoreBounds, sequentialScoreRequest } from "./score-requests.js";
export { flattenTemplateResult, parseTemplateTraitReply } from "./template-replies.js";
export { type TemplateField, templateFields, templateTraitRequest } from "./template-requests.js";
