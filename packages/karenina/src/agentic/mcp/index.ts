export { type AttachOptions, attachMcpServers, type McpToolbox } from "./attach.js";
export { McpConnectError, McpSpecError, McpToolError } from "./errors.js";
export {
  type McpSpec,
  mcpServerConfig,
  mcpServerConfigs,
  parseMcpSpec,
  splitCommandLine,
} from "./mcp-spec.js";
export { exposedToolNames, type ServerTool } from "./tool-names.js";
