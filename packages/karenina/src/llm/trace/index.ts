export { type AgentTraceMetrics, agentMetrics, looksLikeToolFailure } from "./agent-metrics.js";
export {
  type EvaluationInput,
  extractFinalAiMessage,
  type FinalMessageExtraction,
  prepareEvaluationInput,
} from "./final-message.js";
export { AI_MESSAGE_HEADER, renderRawTrace } from "./raw-trace.js";
export {
  deserializeMessages,
  type SerializedMessage,
  SerializedMessageSchema,
  serializeMessages,
  type TraceMessage,
  TraceRecordError,
} from "./serialized-message.js";
