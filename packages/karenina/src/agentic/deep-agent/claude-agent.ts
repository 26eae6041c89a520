/**
 * The `deep_agent` adapter (spec 05 §5.3, seed 002 §1): Claude Code, run through the Claude Agent SDK's
 * `query()`, working in the run's workspace with its own tools (Read, Write, Edit, Bash, ...) and the run's
 * MCP servers. The whole session becomes the trace.
 */
import {
  AdapterUnavailableError,
  type AgentPort,
  type AgentResult,
  type AgentRunOptions,
  BASE_CAPABILITIES,
  callSignal,
  LlmAbortedError,
  type McpAttachment,
  type Message,
  messageText,
  type PortCapabilities,
  type ProviderEnv,
} from "../../llm/index.js";
import { AgentExecutionError, agentResult } from "../agent/index.js";
import {
  type ClaudeBubblewrapNetwork,
  type ClaudeCodeNetwork,
  type ClaudeCodeSandbox,
  type ContainerLimits,
  claudeCodeContainer,
  claudeCodeEngineContainer,
  type DockerRuntime,
} from "../containers/index.js";
import { claudeQueryOptions } from "./query-options.js";
import { type SdkFrame, traceFromSdkMessages } from "./sdk-trace.js";

/** Settings of a Claude Code agent (a `claude_agent_sdk` model). */
export interface ClaudeAgentSettings {
  /** The Claude model, e.g. `claude-sonnet-4-5`. */
  modelName: string;
  /** The key (`anthropic_api_key`); else `ANTHROPIC_API_KEY`, `CLAUDE_CODE_OAUTH_TOKEN` or `ANTHROPIC_AUTH_TOKEN` of `env`. */
  apiKey?: string | null;
  /** An Anthropic-compatible gateway (`anthropic_base_url`), passed as `ANTHROPIC_BASE_URL`. */
  baseURL?: string | null;
  /** The environment Claude Code runs with (default `process.env`); the key and base URL are added to it. */
  env?: ProviderEnv;
  /** Another Claude Code executable than the one bundled with the SDK. */
  pathToClaudeCodeExecutable?: string;
  /** `agent_runtime.access_mode = read_only`: only Read, Glob and Grep. */
  readOnly?: boolean;
  /** Default turn limit of a run (25). */
  maxTurns?: number;
  /** Default wall-clock limit of a run in milliseconds (180 000). */
  timeoutMs?: number;
  /** MCP servers attached to every run. */
  mcp?: McpAttachment | null;
  /**
   * Run Claude Code inside a bubblewrap container (see `claudeCodeContainer`) or a Docker or Podman one (see
   * `claudeCodeEngineContainer`) with these limits; null or absent: as a host process.
   */
  container?: ClaudeContainerSettings | null;
}

/** The container of a deep agent: bubblewrap, or Docker or Podman with an image; `run_command`'s limits. */
export type ClaudeContainerSettings = ClaudeBubblewrapSettings | ClaudeEngineSettings;

/** Claude Code in bubblewrap, on the host's own system files. */
export interface ClaudeBubblewrapSettings {
  backend: "bubblewrap";
  /** `model` (default): only the model's API, through the model gate; `host`: the host's network shared. */
  network?: ClaudeBubblewrapNetwork;
  limits?: Partial<ContainerLimits>;
  /** The `bwrap` program; default the first on PATH. */
  bwrapPath?: string;
}

/** Claude Code in a Docker or Podman container of `image`. */
export interface ClaudeEngineSettings {
  backend: DockerRuntime;
  /** An image with glibc and bash (Claude Code's program is bound into it from the host). */
  image: string;
  /** `host` (default): the host's network; `bridge`: the engine's bridge network. */
  network?: ClaudeCodeNetwork;
  /** `name:address` entries for /etc/hosts (bridge network). */
  addHosts?: readonly string[];
  limits?: Partial<ContainerLimits>;
  /** More host paths bound read-only at their own path (e.g. a library the image lacks). */
  readOnlyPaths?: readonly string[];
}

const DEFAULT_MAX_TURNS = 25;
const DEFAULT_TIMEOUT_MS = 180_000;
const STDERR_TAIL = 4_000;
const AUTH_VARIABLES = ["ANTHROPIC_API_KEY", "CLAUDE_CODE_OAUTH_TOKEN", "ANTHROPIC_AUTH_TOKEN"];

const CLAUDE_CAPABILITIES: PortCapabilities = Object.freeze({
  ...BASE_CAPABILITIES,
  supportsFileTools: true,
  supportsCodeExecution: true,
});
const READ_ONLY_CAPABILITIES: PortCapabilities = Object.freeze({
  ...BASE_CAPABILITIES,
  supportsFileTools: true,
});

/**
 * The environment of the Claude Code process: `env` without unset variables, plus the key and base URL.
 * @throws {AdapterUnavailableError} when no key is given and `env` has none of the variables Claude Code reads.
 */
export function claudeEnv(
  settings: Pick<ClaudeAgentSettings, "apiKey" | "baseURL" | "env">,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(settings.env ?? process.env))
    if (value !== undefined) out[name] = value;
  if (settings.apiKey) out.ANTHROPIC_API_KEY = settings.apiKey;
  if (settings.baseURL) out.ANTHROPIC_BASE_URL = settings.baseURL;
  if (!AUTH_VARIABLES.some((name) => (out[name] ?? "").trim() !== "")) {
    throw new AdapterUnavailableError(
      "claude_agent_sdk needs an API key: set the environment variable ANTHROPIC_API_KEY (or CLAUDE_CODE_OAUTH_TOKEN), or give the model's anthropic_api_key",
      "missing API key",
    );
  }
  return out;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The prompt and system text of a run: user messages joined, system messages joined (spec 05 §5.3). */
function promptOf(messages: readonly Message[]): { prompt: string; system: string | null } {
  const texts = (role: Message["role"]) => messages.filter((m) => m.role === role).map(messageText);
  const system = texts("system");
  return { prompt: texts("user").join("\n\n"), system: system.length === 0 ? null : system.join("\n\n") };
}

/** The container of one session, checked to work here (a missing backend throws, never falls back). */
function sandboxFor(
  container: ClaudeContainerSettings,
  workspace: string,
  env: Record<string, string>,
  stderr: (data: string) => void,
): Promise<ClaudeCodeSandbox> {
  const limits = container.limits === undefined ? {} : { limits: container.limits };
  if (container.backend === "bubblewrap") {
    return claudeCodeContainer({
      workspace,
      ...limits,
      ...(container.network === undefined ? {} : { network: container.network }),
      // The gate forwards to the model Claude Code would have reached: the base URL it is given, else Anthropic's.
      modelBaseURL: env.ANTHROPIC_BASE_URL ?? null,
      ...(container.bwrapPath === undefined ? {} : { bwrapPath: container.bwrapPath }),
      stderr,
    });
  }
  return claudeCodeEngineContainer({
    runtime: container.backend,
    image: container.image,
    workspace,
    ...limits,
    ...(container.network === undefined ? {} : { network: container.network }),
    ...(container.addHosts === undefined ? {} : { addHosts: container.addHosts }),
    ...(container.readOnlyPaths === undefined ? {} : { readOnlyPaths: container.readOnlyPaths }),
    stderr,
  });
}

/**
 * A deep-agent `AgentPort` running Claude Code through the Claude Agent SDK. A run's `workingDir` is Claude
 * Code's cwd; `maxTurns` its turn limit (reaching it is `limitReached`); the wall-clock limit ends it with
 * `timeoutReached` and the partial trace; an abort throws `LlmAbortedError`. Static AI SDK `tools` cannot be
 * given (Claude Code brings its own). A session that fails (or ends with no result) throws
 * `AgentExecutionError` with the end of Claude Code's stderr.
 * @throws {AdapterUnavailableError} when no API key is given or set, or the model name is missing.
 */
export function claudeAgentPort(settings: ClaudeAgentSettings): AgentPort {
  if (!settings.modelName) {
    throw new AdapterUnavailableError("claude_agent_sdk needs model_name", "missing model_name");
  }
  const env = claudeEnv(settings);
  const model = settings.modelName;
  return {
    capabilities: settings.readOnly ? READ_ONLY_CAPABILITIES : CLAUDE_CAPABILITIES,
    async run(messages: readonly Message[], options: AgentRunOptions = {}): Promise<AgentResult> {
      if (options.tools !== undefined && Object.keys(options.tools).length > 0) {
        throw new AgentExecutionError(
          `claude_agent_sdk runs Claude Code's own tools and cannot be given tools (${Object.keys(options.tools).join(", ")}); give them to a tool_loop model`,
        );
      }
      const timeoutMs = options.timeoutMs ?? settings.timeoutMs ?? DEFAULT_TIMEOUT_MS;
      const guard = callSignal(timeoutMs, options.signal);
      const abortController = new AbortController();
      const abort = () => abortController.abort();
      if (guard.signal.aborted) abort();
      else guard.signal.addEventListener("abort", abort, { once: true });
      const stderr = { tail: "" };
      const frames: SdkFrame[] = [];
      const { prompt, system } = promptOf(messages);
      const cwd = options.workingDir ?? process.cwd();
      let container: ClaudeCodeSandbox | null = null;
      try {
        if (settings.container != null) {
          // Made before the session, so that a missing backend fails the run instead of falling back to the host.
          container = await sandboxFor(settings.container, cwd, env, (data) => {
            stderr.tail = (stderr.tail + data).slice(-STDERR_TAIL);
          });
        }
      } catch (error) {
        guard.signal.removeEventListener("abort", abort);
        guard.dispose();
        throw error;
      }
      try {
        // Loaded on first use: the SDK is large and only deep-agent runs need it.
        const { query } = await import("@anthropic-ai/claude-agent-sdk");
        const stream = query({
          prompt,
          options: claudeQueryOptions({
            modelName: model,
            systemPrompt: system,
            cwd,
            maxTurns: options.maxTurns ?? settings.maxTurns ?? DEFAULT_MAX_TURNS,
            env,
            mcp: options.mcp === undefined ? (settings.mcp ?? null) : options.mcp,
            readOnly: settings.readOnly ?? false,
            abortController,
            stderr: (data) => {
              stderr.tail = (stderr.tail + data).slice(-STDERR_TAIL);
            },
            ...(settings.pathToClaudeCodeExecutable === undefined
              ? {}
              : { pathToClaudeCodeExecutable: settings.pathToClaudeCodeExecutable }),
            ...(container === null ? {} : { spawnClaudeCodeProcess: container.spawn }),
          }),
        });
        for await (const frame of stream) frames.push(frame as SdkFrame);
      } catch (error) {
        if (guard.aborted()) throw new LlmAbortedError(model, error);
        // The container could not start Claude Code: the backend's own error, not a failure of the agent.
        if (container?.failure != null) throw container.failure;
        // A process that fails after its result message (an error result exits non-zero) is judged by that result.
        if (!guard.timedOut() && !frames.some((frame) => frame.type === "result")) {
          throw new AgentExecutionError(
            `Claude Code failed: ${messageOf(error)}`,
            stderr.tail.trim() || null,
            false,
            error,
          );
        }
      } finally {
        guard.signal.removeEventListener("abort", abort);
        guard.dispose();
        await container?.dispose();
      }
      const run = traceFromSdkMessages(frames);
      const outcome = {
        usage: { ...run.usage, model: run.actualModel ?? model },
        ...(run.actualModel === undefined ? {} : { actualModel: run.actualModel }),
      };
      if (guard.timedOut()) {
        const turns = run.trace.filter((m) => m.role === "assistant").length;
        return agentResult(run.trace, { ...outcome, turns, limitReached: false, timeoutReached: true });
      }
      const { result } = run;
      if (result === null) {
        throw new AgentExecutionError(
          "Claude Code ended without a result message",
          stderr.tail.trim() || null,
        );
      }
      const limitReached = result.subtype === "error_max_turns";
      if (result.subtype !== "success" && !limitReached) {
        const errors = Array.isArray(result.errors) ? result.errors.join("; ") : "";
        throw new AgentExecutionError(
          `Claude Code run failed (${String(result.subtype)})${errors === "" ? "" : `: ${errors}`}`,
          stderr.tail.trim() || null,
        );
      }
      return agentResult(run.trace, {
        ...outcome,
        turns: typeof result.num_turns === "number" ? result.num_turns : run.trace.length,
        limitReached,
        timeoutReached: false,
        ...(typeof result.session_id === "string" ? { sessionId: result.session_id } : {}),
      });
    },
    close: async () => {},
  };
}
