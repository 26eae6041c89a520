export { DuplicateTraitError, NothingToEvaluateError, TaskEvalError } from "./errors.js";
export type { LogTarget, MergeStrategy, SerializedMessageInput, TraceInput } from "./logs.js";
export { TASKEVAL_PASS_THROUGH_TEMPLATE } from "./pass-through-template.js";
export {
  StepEval,
  type StepEvalSummary,
  type TraitScoreSource,
  type TraitScoreSummary,
} from "./step-eval.js";
export {
  type LogOptions,
  TASKEVAL_ANSWERING_MODEL,
  TaskEval,
  type TaskEvalEvaluateOptions,
  type TaskEvalOptions,
  type TaskEvalQuestion,
} from "./task-eval.js";
export { TaskEvalResult, type TaskEvalSummary } from "./task-eval-result.js";
