export { recordingAgentPort, WORKSPACE_PLACEHOLDER } from "./agent-recording.js";
export {
  type RecordingFile,
  RecordingFileSchema,
  type RecordingKind,
  type RecordingMode,
  type RecordingOptions,
  recordingKey,
  recordingLlmPort,
  recordingParserPort,
  requestSubject,
} from "./recording-ports.js";
