export { type AgentPrompt, type AgentStep, toAgentPrompt, traceFromSteps } from "./agent-messages.js";
export { agentResult, type RunOutcome } from "./agent-result.js";
export { AgentExecutionError } from "./errors.js";
export {
  type AgentMiddleware,
  type RetrySettings,
  retryDelayMs,
  type SummarizationSettings,
} from "./middleware.js";
export { MODEL_FAILURE_PREFIX } from "./model-retry.js";
export { TOOL_LIMIT_MESSAGE, ToolCallRefusedError } from "./tool-guard.js";
export { type ToolLoopAgentOptions, toolLoopAgent } from "./tool-loop-agent.js";
export { estimateTokens, SUMMARY_HEADING, TraceSummarizer } from "./trace-summarizer.js";
