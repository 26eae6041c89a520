export {
  isQuestionHash,
  type ManualTrace,
  ManualTraceError,
  type ManualTraceRecord,
  type ManualTraceRegisterOptions,
  ManualTraces,
  parseManualTraces,
  questionHash,
  readManualTracesFile,
} from "./manual-traces.js";
