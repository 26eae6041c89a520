export { Benchmark, type TemplateValidator } from "./benchmark.js";
export {
  BenchmarkUsageError,
  DuplicateQuestionError,
  MissingTemplateError,
  QuestionNotFoundError,
} from "./errors.js";
export { pipelineQuestions } from "./pipeline-questions.js";
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
  SaveOptions,
} from "./types.js";
