export { ScenarioResultRecordError } from "./errors.js";
export * from "./scenario-execution-line.js";
export {
  isScenarioRow,
  scenarioRecord,
  scenarioRecordsFromRows,
  scenarioRowsById,
} from "./scenario-records-from-rows.js";
export {
  parseScenarioResultRecord,
  type ScenarioOutcomeValue,
  ScenarioOutcomeValueSchema,
  type ScenarioResultRecord,
  type ScenarioResultRecordInput,
  ScenarioResultRecordSchema,
  type ScenarioTerminalFailureRecord,
  ScenarioTerminalFailureRecordSchema,
  type ScenarioTurnRecord,
  type ScenarioTurnRecordInput,
  ScenarioTurnRecordSchema,
  scenarioRecordForExport,
} from "./scenario-result-record.js";
export {
  type BooleanOutcomeSummary,
  type MixedOutcomeSummary,
  type NumberOutcomeSummary,
  type ScenarioExecutionsSummary,
  type ScenarioOutcomeSummary,
  summarizeScenarios,
} from "./scenario-summary.js";
export {
  outcomeType,
  type ScenarioExecutionRow,
  type ScenarioOutcomeRow,
  type ScenarioOutcomeType,
  type ScenarioTurnRow,
  scenarioExecutionTable,
  scenarioOutcomeTable,
  scenarioTurnTable,
} from "./scenario-tables.js";
