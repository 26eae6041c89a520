export {
  type AddQuestionOptions,
  Benchmark,
  type BenchmarkOptions,
  type BenchmarkStatistics,
  type BenchmarkSummary,
  type FinishedTemplate,
  type HealthReport,
  type LoadOptions,
  type QuestionMetadata,
  type QuestionMetadataUpdate,
  type QuestionRecordInput,
  type SaveOptions,
  type TemplateSource,
} from "./benchmark.js";
export {
  BenchmarkUsageError,
  DuplicateQuestionError,
  MissingTemplateError,
  QuestionNotFoundError,
} from "./errors.js";
export type { MatchMode, QuestionFilter, SearchOptions } from "./queries.js";
export type { HealthStatus, ReadinessReport, RubricProblem, TemplateProblem } from "./readiness.js";
export { checkTemplateSyntax, type TemplateSyntaxChecker } from "./template-syntax.js";
