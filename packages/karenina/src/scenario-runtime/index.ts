export { historyKeyStrings, scenarioCacheKey } from "./cache-key.js";
export { type EdgeSelectionOptions, type NextNode, resolveNextNode } from "./edge-selection.js";
export { ScenarioRuntimeError } from "./errors.js";
export { applyHandover, type HandoverResult } from "./handover.js";
export {
  evaluateOutcome,
  evaluateOutcomeCriteria,
  type OutcomeCriteriaOptions,
  type OutcomeValue,
} from "./outcome-evaluation.js";
export { type OrderingOperator, pyOrderingHolds } from "./python-ordering.js";
export * from "./runtime-types.js";
export { SandboxScenarioCallables, type ScenarioCallables } from "./scenario-callables.js";
export { resolveResultField, resolveStatePath, resolveTurnField } from "./state-paths.js";
export { applyStateUpdate, type StateUpdateOptions } from "./state-update.js";
export {
  materializeTrace,
  scenarioTraceFileName,
  TRACE_THRESHOLD_ENV,
  type TraceFileOptions,
  traceOffloadThreshold,
} from "./trace-file.js";
export {
  DEFAULT_TRACE_OFFLOAD_THRESHOLD,
  formatTurnsAsXml,
  groupEntriesIntoTurns,
  parseTranscriptEntries,
  reformatTranscriptAsXml,
  type TranscriptEntry,
  type TranscriptTurn,
} from "./trace-xml.js";
export { formatTranscript } from "./transcript.js";
