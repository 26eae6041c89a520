export { type CallGuard, callSignal, fromSdkUsage, toPortError } from "./ai-sdk-bridge.js";
export {
  callSettings,
  type LanguageModelTarget,
  languageModelLlm,
  languageModelParser,
  type ModelCallSettings,
} from "./ai-sdk-ports.js";
export * from "./cache/index.js";
export {
  AdapterUnavailableError,
  type ErrorCategory,
  LlmAbortedError,
  type LlmCallDetails,
  LlmCallError,
  LlmTimeoutError,
  ParseError,
  PortError,
  RateLimitError,
} from "./errors.js";
export { extractJsonText, repairJson } from "./json-extraction.js";
export * from "./manual/index.js";
export {
  assistantMessage,
  type Content,
  type Message,
  messageText,
  type Role,
  systemMessage,
  type TextContent,
  type ThinkingContent,
  type ToolResultContent,
  type ToolUseContent,
  toolResultMessage,
  userMessage,
} from "./messages.js";
export {
  type AgentPort,
  type AgentResult,
  type AgentRunOptions,
  BASE_CAPABILITIES,
  type CallOptions,
  type LlmPort,
  type LlmResponse,
  type McpAttachment,
  type McpServerConfig,
  type ParseResult,
  type ParserPort,
  type ParseStrategy,
  type PortCapabilities,
  type StructuredSchema,
  type Validation,
} from "./ports.js";
export * from "./providers/index.js";
export * from "./recording/index.js";
export * from "./replay/index.js";
export { type RequestSettings, requestSettings } from "./request-settings.js";
export {
  type CategoryRetryConfig,
  CategoryRetryConfigSchema,
  deriveSdkMaxRetries,
  type ErrorPatternConfig,
  ErrorPatternConfigSchema,
  type RetryPolicy,
  RetryPolicySchema,
  TimeoutEscalationConfigSchema,
} from "./retry/index.js";
export * from "./scheduler/index.js";
export { zodStructuredSchema } from "./structured-schema.js";
export * from "./trace/index.js";
export { addUsage, emptyUsage, isUsageEmpty, type UsageMetadata } from "./usage.js";
