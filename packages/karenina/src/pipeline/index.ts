export { AnswerShare, type SharedAnswer } from "./answer-share.js";
export { type BatchCallbacks, type BatchOutcome, runBatch, type TaskFailure } from "./batch.js";
export { classifyError, describeException } from "./classify-error.js";
export * from "./config/index.js";
export {
  type ArtifactKey,
  type Artifacts,
  type ResultDraft,
  type TaskError,
  VerificationContext,
} from "./context.js";
export * from "./dry-run/index.js";
export * from "./extend-run/index.js";
export {
  type CallRecorder,
  type CallRequest,
  type CallServices,
  endpointKey,
  ModelCalls,
  type PortProvider,
} from "./model-calls.js";
export { runStages, TaskAbortedError } from "./orchestrator.js";
export {
  type AnswerGroup,
  answerGroups,
  answerGroupTasks,
  defaultRunName,
  type PlanOptions,
  planTasks,
  type TaskPlan,
  taskPlan,
} from "./planning.js";
export * from "./post-hoc-rubric/index.js";
export {
  costOf,
  DEFAULT_PRICES,
  loadPriceTable,
  type ModelPrice,
  ModelPriceSchema,
  type PriceTable,
  PriceTableError,
  PriceTableSchema,
} from "./pricing.js";
export * from "./prompts/index.js";
export * from "./run-log/index.js";
export * from "./run-state.js";
export { RunStats } from "./run-stats.js";
export {
  type ProgressEvent,
  type RunStatsSnapshot,
  type RunSummary,
  type RunVerificationOptions,
  resultTaskKey,
  runVerification,
  type VerificationRun,
} from "./run-verification.js";
export * from "./scenario-run/index.js";
export {
  CachingPortProvider,
  type CallServicesOptions,
  createCallServices,
  createRunServices,
  type RunServices,
  type RunServicesOptions,
} from "./services.js";
export { checkStageDependencies, type Stage, StageDependencyError, shouldRunStage } from "./stage.js";
export { stagesFor } from "./stage-list.js";
export { AgenticTraitModelError } from "./stages/agentic-rubric-evaluation.js";
export { type PipelineQuestion, taskKey, type VerificationTask } from "./task.js";
export * from "./task-eval/index.js";
export {
  resolveSearchTool,
  TAVILY_API_URL,
  TAVILY_BASE_URL_VARIABLE,
  type TavilySearchOptions,
  tavilySearch,
} from "./web-search/index.js";
