export { ScenarioAnswerCache } from "./answer-cache.js";
export {
  executionSummary,
  runScenarioVerification,
  ScenarioExecutionFailure,
  type ScenarioProgressEvent,
  type ScenarioRun,
  type ScenarioRunError,
  type ScenarioRunOptions,
  type ScenarioRunSummary,
} from "./run-scenarios.js";
export { comboDescription, type ScenarioCombo, scenarioCombos } from "./scenario-combos.js";
export {
  type ExecutionInput,
  runScenarioExecution,
  safeSegment,
  type TurnProgress,
} from "./scenario-execution.js";
export { finishedExecutions, readScenarioRunLog, type ScenarioRunLog } from "./scenario-run-log.js";
export { TurnConfigs } from "./turn-config.js";
export { applyToolFilter, hydrateOverride, type TurnModels, turnModels } from "./turn-models.js";
