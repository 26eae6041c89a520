export {
  type ClaudeAgentSettings,
  type ClaudeContainerSettings,
  claudeAgentPort,
  claudeEnv,
} from "./claude-agent.js";
export {
  type ClaudeQueryInput,
  claudeQueryOptions,
  READ_ONLY_TOOLS,
  toolPermission,
} from "./query-options.js";
export { type SdkFrame, type SdkRun, traceFromSdkMessages } from "./sdk-trace.js";
