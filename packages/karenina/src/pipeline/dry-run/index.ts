export { ASSUMED_AGENT_TURNS, ASSUMED_TOOL_RESULT_TOKENS } from "./agent-calls.js";
export { ESCALATION_PROBABILITY } from "./agentic-calls.js";
export { cacheEntryOutput, outputTokenHistory, readOutputTokenHistory } from "./cache-history.js";
export {
  CALL_KINDS,
  type CallKind,
  DRY_RUN_STAGES,
  type DryRunStage,
  OUTPUT_TOKEN_DEFAULTS,
  type OutputTokenDefault,
  type OutputTokenHistory,
  outputTokensFor,
} from "./call-kinds.js";
export type {
  DryRunFailedTasks,
  DryRunModelCost,
  DryRunOutputEstimate,
  DryRunPair,
  DryRunPlan,
  DryRunRole,
  DryRunStageCount,
} from "./dry-run-plan.js";
export { type DryRunOptions, planDryRun } from "./plan-dry-run.js";
export { DRY_RUN_TOKENIZER } from "./token-counter.js";
