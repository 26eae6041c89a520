export { type AnalyzeErrorsRequest, analyzeErrors } from "./analyze-errors.js";
export { LauncherError, MaterializationError, ReportMissingError } from "./errors.js";
export { type AnalysisCases, analysisCases, type ScenarioExecution } from "./executions.js";
export { LAUNCHERS } from "./launchers.js";
export { substitutePlaceholders } from "./prompt.js";
