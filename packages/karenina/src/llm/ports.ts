import type { ToolSet } from "ai";
import type { Message } from "./messages.js";
import type { AgentTraceMetrics, TraceMessage } from "./trace/index.js";
import type { UsageMetadata } from "./usage.js";

/** What an adapter can do (spec 05 §2); the prompt assembler and stages read it. */
export interface PortCapabilities {
  supportsSystemPrompt: boolean;
  supportsStructuredOutput: boolean;
  supportsStreaming: boolean;
  supportsFileTools: boolean;
  supportsCodeExecution: boolean;
  usesSandboxedExecution: boolean;
}

/** Capabilities of a plain chat model: system prompts and nothing else. */
export const BASE_CAPABILITIES: PortCapabilities = Object.freeze({
  supportsSystemPrompt: true,
  supportsStructuredOutput: false,
  supportsStreaming: false,
  supportsFileTools: false,
  supportsCodeExecution: false,
  usesSandboxedExecution: false,
});

/** Per-call options of every port method. */
export interface CallOptions {
  /** Aborts the call; the port then throws `LlmAbortedError`. */
  signal?: AbortSignal;
  /** Wall-clock limit of one HTTP call in milliseconds; overrides the adapter's default. */
  timeoutMs?: number;
}

/** The answer of one LLM call. */
export interface LlmResponse {
  content: string;
  usage: UsageMetadata;
  /** True when the text was cut short (streaming timeout); always false for a completed call. */
  isPartial: boolean;
  /** True when the provider reported no usage (or only zeros). */
  usageUnavailable: boolean;
}

/** One LLM call, no tools: messages in, text and usage out (spec 05 §3.1). */
export interface LlmPort {
  readonly capabilities: PortCapabilities;
  invoke(messages: readonly Message[], options?: CallOptions): Promise<LlmResponse>;
  /**
   * The same call, streamed (spec 05 §3.1 `streamInvoke`): when the call's timeout cuts the stream, the text
   * received so far comes back with `isPartial: true` instead of an error. Present only on ports whose
   * `capabilities.supportsStreaming` is true; callers fall back to `invoke` otherwise.
   */
  streamInvoke?(messages: readonly Message[], options?: CallOptions): Promise<LlmResponse>;
  /** Releases resources; idempotent. */
  close(): Promise<void>;
}

/** The outcome of checking a value against a schema: the typed value, or a readable error. */
export type Validation<T> = { success: true; value: T } | { success: false; error: string };

/**
 * The shape a parser must produce: a JSON Schema sent to the model (native structured output and prompt
 * text) and a validator run on what comes back. Build one from a Zod schema with `zodStructuredSchema`.
 */
export interface StructuredSchema<T> {
  /** A short identifier (letters, digits, `_`, `-`), sent as the schema's name. */
  name: string;
  description?: string;
  jsonSchema: Record<string, unknown>;
  validate(value: unknown): Validation<T>;
}

/** How a parser obtained its object. */
export type ParseStrategy = "native" | "extracted" | "repaired" | "feedback_retry";

/** A validated object, the raw text it came from and the usage of every call made. */
export interface ParseResult<T> {
  parsed: T;
  rawText: string;
  usage: UsageMetadata;
  strategy: ParseStrategy;
}

/**
 * LLM-backed structured extraction (spec 05 §3.2): receives fully assembled messages, owns the fallback and
 * repair logic, and throws `ParseError` (with the raw judge text) when it cannot produce a valid object.
 */
export interface ParserPort {
  readonly capabilities: PortCapabilities;
  parse<T>(
    messages: readonly Message[],
    schema: StructuredSchema<T>,
    options?: CallOptions,
  ): Promise<ParseResult<T>>;
  /** Releases resources; idempotent. */
  close(): Promise<void>;
}

/**
 * An MCP server an agent attaches (spec 05 §3.3): a streamable-HTTP endpoint, or a command run as a child
 * process speaking MCP over stdio.
 */
export type McpServerConfig =
  | { type: "http"; url: string; headers?: Readonly<Record<string, string>> }
  | {
      type: "stdio";
      command: string;
      args: readonly string[];
      env?: Readonly<Record<string, string>>;
    };

/** The MCP servers of a run and which of their tools the agent is offered. */
export interface McpAttachment {
  /** Servers by name; the names show in tool names (`mcp__<server>__<tool>` for the deep agent). */
  servers: Readonly<Record<string, McpServerConfig>>;
  /** Allow-list of tool names (`mcp_tool_filter`); absent or null offers every tool. */
  toolFilter?: readonly string[] | null;
  /** Descriptions replacing the servers' own, by tool name (`mcp_tool_description_overrides`). */
  descriptionOverrides?: Readonly<Record<string, string>> | null;
  /** Time allowed to connect to one server and list its tools, in milliseconds (default 30 000). */
  connectTimeoutMs?: number;
  /** Time allowed for one tool call, in milliseconds (default 300 000). */
  callTimeoutMs?: number;
}

/** Options of one agent run. Every field overrides the default the port was built with. */
export interface AgentRunOptions {
  /** AI SDK tools offered besides the MCP ones (e.g. workspace file tools), by name. */
  tools?: ToolSet;
  /** MCP servers attached for this run and closed when it ends, however it ends. */
  mcp?: McpAttachment | null;
  /** Model turns allowed (default 25); reaching the limit ends the run with `limitReached`. */
  maxTurns?: number;
  /** The workspace directory the agent works in (its cwd). */
  workingDir?: string;
  /** Aborts the run; the port then throws `LlmAbortedError`. */
  signal?: AbortSignal;
  /** Wall-clock limit of the whole run in milliseconds; reaching it ends the run with `timeoutReached`. */
  timeoutMs?: number;
}

/** What an agent run produced (spec 05 §3.3). */
export interface AgentResult {
  /** The text of the last assistant message ("" when the run ended on tool calls). */
  finalResponse: string;
  /** The trace in the raw trace text format (spec 04 §11.1): the pipeline's `raw_llm_response`. */
  rawTrace: string;
  /**
   * Every message the agent produced, in order: assistant turns (text, thinking, tool calls with their
   * input, and the call's usage), then the tool results of each turn. The input messages are not repeated.
   */
  traceMessages: TraceMessage[];
  /** Usage summed over every model call of the run. */
  usage: UsageMetadata;
  usageUnavailable: boolean;
  /** Model turns taken. */
  turns: number;
  /** The turn limit stopped the run while the agent still had tool calls to make (recursion limit). */
  limitReached: boolean;
  /** The wall-clock limit stopped the run; the trace holds the turns completed before it. */
  timeoutReached: boolean;
  /** Metrics of the trace (spec 04 §11.3), `limit_reached` included. */
  metrics: AgentTraceMetrics;
  sessionId?: string;
  /** The model that answered, when the runtime reports it. */
  actualModel?: string;
}

/**
 * A multi-turn agent with tools (spec 05 §3.3): messages in, the whole trace out. Hitting the turn limit or
 * the wall-clock limit is a result (`limitReached`, `timeoutReached`), not an error.
 */
export interface AgentPort {
  readonly capabilities: PortCapabilities;
  run(messages: readonly Message[], options?: AgentRunOptions): Promise<AgentResult>;
  /** Releases resources; idempotent. */
  close(): Promise<void>;
}
