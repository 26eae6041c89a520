/** The Claude Agent SDK's `query()` options for one deep-agent run (spec 05 §5.3), built without I/O. */
import type {
  Options,
  PermissionResult,
  McpServerConfig as SdkMcpServerConfig,
} from "@anthropic-ai/claude-agent-sdk";
import type { McpAttachment, McpServerConfig } from "../../llm/index.js";

/** Claude Code's tools that only read, offered alone in read-only mode. */
export const READ_ONLY_TOOLS: readonly string[] = Object.freeze(["Read", "Glob", "Grep"]);

/** What one run needs besides the prompt. */
export interface ClaudeQueryInput {
  modelName: string;
  /** System text appended to Claude Code's own system prompt; null keeps it as it is. */
  systemPrompt: string | null;
  /** The workspace: Claude Code's working directory. */
  cwd: string;
  maxTurns: number;
  /** The whole environment of the Claude Code process (it replaces the parent's). */
  env: Readonly<Record<string, string>>;
  mcp: McpAttachment | null;
  /** Offer only the reading tools, and refuse any other tool use. */
  readOnly: boolean;
  /** Another Claude Code executable than the one bundled with the SDK. */
  pathToClaudeCodeExecutable?: string;
  /** Starts Claude Code in a container instead of as a host process (the SDK's `spawnClaudeCodeProcess`). */
  spawnClaudeCodeProcess?: Options["spawnClaudeCodeProcess"];
  abortController: AbortController;
  /** Receives Claude Code's stderr. */
  stderr: (data: string) => void;
}

function sdkServer(config: McpServerConfig): SdkMcpServerConfig {
  if (config.type === "http") {
    return {
      type: "http",
      url: config.url,
      ...(config.headers === undefined ? {} : { headers: { ...config.headers } }),
    };
  }
  return {
    type: "stdio",
    command: config.command,
    args: [...config.args],
    ...(config.env === undefined ? {} : { env: { ...config.env } }),
  };
}

/**
 * Whether Claude Code may use a tool: an MCP tool (`mcp__<server>__<tool>`) only when its server is attached and
 * the tool passes the allow-list; in read-only mode only the reading tools; anything else is allowed.
 */
export function toolPermission(
  toolName: string,
  input: Record<string, unknown>,
  rules: { mcp: McpAttachment | null; readOnly: boolean },
): PermissionResult {
  const match = /^mcp__(.+?)__(.+)$/.exec(toolName);
  if (match !== null) {
    const [, server = "", tool = ""] = match;
    const attached = rules.mcp !== null && Object.hasOwn(rules.mcp.servers, server);
    const filter = rules.mcp?.toolFilter;
    if (!attached || (filter != null && !filter.includes(tool))) {
      return { behavior: "deny", message: `the MCP tool ${toolName} is not in this run's allow-list` };
    }
    return { behavior: "allow", updatedInput: input };
  }
  if (rules.readOnly && !READ_ONLY_TOOLS.includes(toolName)) {
    return { behavior: "deny", message: `${toolName} is not allowed: this run is read-only` };
  }
  return { behavior: "allow", updatedInput: input };
}

/**
 * The `query()` options of a run: cwd = the workspace, the model, the turn limit, the environment (with the
 * API key), MCP servers sent in the initialize request (not on the command line, where their env and headers
 * would show), the `Skill` tool disallowed, no settings files read, the system text appended to Claude Code's
 * own prompt. Every permission request goes to {@link toolPermission}, which enforces the MCP allow-list:
 * Claude Code's bypass mode would ignore it (and refuses to run as root), and `allowedTools` entries would
 * approve tools before the check.
 */
export function claudeQueryOptions(input: ClaudeQueryInput): Options {
  const { mcp } = input;
  const servers = mcp === null ? {} : mcp.servers;
  const hasServers = Object.keys(servers).length > 0;
  return {
    cwd: input.cwd,
    model: input.modelName,
    maxTurns: input.maxTurns,
    env: { ...input.env },
    abortController: input.abortController,
    stderr: input.stderr,
    settingSources: [],
    disallowedTools: ["Skill"],
    permissionMode: "default",
    canUseTool: async (toolName, toolInput) =>
      toolPermission(toolName, toolInput, { mcp, readOnly: input.readOnly }),
    ...(input.systemPrompt === null
      ? {}
      : { systemPrompt: { type: "preset", preset: "claude_code", append: input.systemPrompt } }),
    ...(input.readOnly ? { tools: [...READ_ONLY_TOOLS] } : {}),
    ...(hasServers
      ? {
          mcpServers: Object.fromEntries(Object.entries(servers).map(([name, c]) => [name, sdkServer(c)])),
          mcpServersDelivery: "initialize" as const,
        }
      : {}),
    ...(input.pathToClaudeCodeExecutable === undefined
      ? {}
      : { pathToClaudeCodeExecutable: input.pathToClaudeCodeExecutable }),
    ...(input.spawnClaudeCodeProcess === undefined
      ? {}
      : { spawnClaudeCodeProcess: input.spawnClaudeCodeProcess }),
  };
}
