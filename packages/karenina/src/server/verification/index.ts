export { ResultSaver } from "./result-saver.js";
export { type ResultReference, resultsByReference } from "./results-by-reference.js";
export {
  prepareVerificationJob,
  VERIFICATION_JOB,
  type VerificationJobInput,
  VerificationJobInputSchema,
  verificationJobKind,
} from "./verification-job.js";
