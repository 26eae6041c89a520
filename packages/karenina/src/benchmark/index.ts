export { Benchmark, type BenchmarkRunOptions, type TemplateValidator } from "./benchmark.js";
export {
  type BenchmarkDatasetCreator,
  type BenchmarkDatasetMetadata,
  CREATOR_PROPERTY,
  datasetMetadataOf,
  setDatasetMetadata,
} from "./dataset-metadata.js";
export {
  BenchmarkUsageError,
  DuplicateQuestionError,
  GeneratedTemplatesFileError,
  MissingTemplateError,
  QuestionNotFoundError,
  ScenarioNotFoundError,
} from "./errors.js";
export type { BenchmarkDict, BenchmarkExportFormat, QuestionDict } from "./exports.js";
export {
  benchmarkFromLegacyCheckpoint,
  type CheckpointFormat,
  isLegacyCheckpoint,
  readAnyCheckpoint,
} from "./legacy-checkpoint.js";
export {
  pipelineQuestions,
  type QuestionSelection,
  type SelectQuestionsOptions,
  type SkippedQuestion,
  type SkipReason,
  selectQuestions,
} from "./pipeline-questions.js";
export type { MatchMode, QuestionFilter, SearchOptions } from "./queries.js";
export type { HealthStatus, ReadinessReport, RubricProblem, TemplateProblem } from "./readiness.js";
export type {
  AddQuestionOptions,
  BenchmarkOptions,
  BenchmarkStatistics,
  BenchmarkSummary,
  FinishedTemplate,
  HealthReport,
  LoadOptions,
  QuestionMetadata,
  QuestionMetadataUpdate,
  QuestionRecordInput,
  QuestionSource,
  QuestionUpdate,
  SaveOptions,
} from "./types.js";
