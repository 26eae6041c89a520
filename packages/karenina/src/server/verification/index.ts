export { exportFilename, exportModelsOfJob } from "./export-file.js";
export { fleetVerificationJobKind } from "./fleet-verification-job.js";
export { compareModelsByReference } from "./model-comparison-by-reference.js";
export { storageOfReferences } from "./reference-storage.js";
export { ResultSaver } from "./result-saver.js";
export {
  compareByReference,
  type ResultReference,
  referencesOf,
  summarizeByReference,
} from "./results-by-reference.js";
export {
  GRAPH_END,
  type ScenarioGraphView,
  ScenarioGraphViewSchema,
  scenarioGraphView,
} from "./scenario-graph-view.js";
export { scenarioResultsOfRunLog } from "./scenario-job.js";
export {
  type JobScenarios,
  JobScenariosSchema,
  jobScenarios,
  ScenarioExecutionsSummarySchema,
} from "./scenario-job-files.js";
export {
  prepareVerificationJob,
  runLogOfJob,
  VERIFICATION_JOB,
  type VerificationJobInput,
  VerificationJobInputSchema,
  verificationJobKind,
} from "./verification-job.js";
