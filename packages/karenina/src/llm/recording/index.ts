export {
  type RecordingFile,
  RecordingFileSchema,
  type RecordingMode,
  type RecordingOptions,
  recordingKey,
  recordingLlmPort,
  recordingParserPort,
} from "./recording-ports.js";
