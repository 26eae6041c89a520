export { Benchmark, type BenchmarkRunOptions, type TemplateValidator } from "./benchmark.js";
export {
  BenchmarkUsageError,
  DuplicateQuestionError,
  GeneratedTemplatesFileError,
  MissingTemplateError,
  QuestionNotFoundError,
} from "./errors.js";
export type { BenchmarkDict, BenchmarkExportFormat, QuestionDict } from "./exports.js";
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
  SaveOptions,
} from "./types.js";
