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
  prepareVerificationJob,
  VERIFICATION_JOB,
  type VerificationJobInput,
  VerificationJobInputSchema,
  verificationJobKind,
} from "./verification-job.js";
