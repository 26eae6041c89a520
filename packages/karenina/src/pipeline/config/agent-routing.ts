/**
 * Which port answers for a model (seed 002 §1) and the agent serving it: the `deep_agent` runtime (Claude
 * Code) for `claude_agent_sdk`, else the AI SDK tool loop over the model's provider.
 */
import type { ToolSet } from "ai";
import {
  type AgentMiddleware,
  claudeAgentPort,
  mcpServerConfigs,
  toolLoopAgent,
} from "../../agentic/index.js";
import {
  AdapterUnavailableError,
  type AgentPort,
  type LanguageModelTarget,
  type McpAttachment,
  type ProviderEnv,
  type RecordingMode,
  recordingAgentPort,
} from "../../llm/index.js";
import { languageModelFor, requestKwargs } from "./adapter-routing.js";
import { deepAgentContainerFor } from "./command-routing.js";
import type { ModelConfig } from "./model/index.js";
import {
  AgentMiddlewareConfigSchema,
  type AgentTier,
  INTERFACES,
  isKnownInterface,
  summarizationTrigger,
} from "./model/index.js";

/**
 * The agent tier of a model's interface (seed 002 §1): `deep_agent` for runtimes that are agents themselves
 * (`claude_agent_sdk`, `langchain_deep_agents`), `tool_loop` for every other interface (unknown ones included).
 */
export function agentTierFor(model: Pick<ModelConfig, "interface">): AgentTier {
  return isKnownInterface(model.interface)
    ? (INTERFACES[model.interface]?.agentTier ?? "tool_loop")
    : "tool_loop";
}

/**
 * Whether the answering step uses the `AgentPort` (capturing tool calls, tool results and intermediate text)
 * rather than the `LlmPort` (seed 002 §1): when the model has MCP servers, or its interface is a deep agent.
 * `manual` answers are read from their registered traces before this rule is asked.
 * @example
 * usesAgentPort({ interface: "openai_endpoint", mcp_urls_dict: null }); // false
 * usesAgentPort({ interface: "openai_endpoint", mcp_urls_dict: { kb: "http://127.0.0.1:8931/mcp" } }); // true
 * usesAgentPort({ interface: "claude_agent_sdk", mcp_urls_dict: null }); // true
 */
export function usesAgentPort(model: Pick<ModelConfig, "interface" | "mcp_urls_dict">): boolean {
  return Object.keys(model.mcp_urls_dict ?? {}).length > 0 || agentTierFor(model) === "deep_agent";
}

/**
 * The MCP servers of a model (`mcp_urls_dict`: URL or command line per name), with its tool allow-list,
 * description overrides and timeouts; null when it has none.
 * @throws {McpSpecError} when a value is neither an http(s) URL nor a command line.
 */
export function mcpAttachmentFor(model: ModelConfig): McpAttachment | null {
  const urls = model.mcp_urls_dict ?? {};
  if (Object.keys(urls).length === 0) return null;
  return {
    servers: mcpServerConfigs(urls),
    toolFilter: model.mcp_tool_filter,
    descriptionOverrides: model.mcp_tool_description_overrides,
    ...(model.mcp_http_timeout === null ? {} : { connectTimeoutMs: model.mcp_http_timeout * 1000 }),
    ...(model.mcp_sse_read_timeout === null ? {} : { callTimeoutMs: model.mcp_sse_read_timeout * 1000 }),
  };
}

/** What an agent is for: answering (with the model's `agent_middleware`) or judging (without). */
export type AgentRole = "answering" | "judge";

/** How {@link agentPortFor} builds an agent. */
export interface AgentRoutingOptions {
  /** Default `answering`: a tool loop then runs with the model's `agent_middleware`; a judge's does not. */
  role?: AgentRole;
  /** Where API keys (and base URLs) are read from, and Claude Code's environment; default `process.env`. */
  env?: ProviderEnv;
  /** Static tools offered to a tool-loop agent in every run (e.g. workspace tools). */
  tools?: ToolSet;
  /** Another Claude Code executable than the one bundled with the Claude Agent SDK. */
  pathToClaudeCodeExecutable?: string;
  /**
   * Record every agent run (turns, tool calls and results) to files in `dir` (`record`), or replay them
   * offline (`replay`: no agent runs, so no key, network, tool or MCP server is needed).
   */
  recording?: { dir: string; mode: RecordingMode };
}

/** A number at `path` of an object kept as given (`agent_middleware`), or undefined. */
function numberAt(value: unknown, path: readonly string[]): number | undefined {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return typeof current === "number" && Number.isFinite(current) ? current : undefined;
}

function extraString(model: ModelConfig, key: string): string | null {
  const value = model.extra_kwargs?.[key];
  return typeof value === "string" && value !== "" ? value : null;
}

/**
 * The `AgentPort` answering for a model: `claude_agent_sdk` runs Claude Code (key from `anthropic_api_key`
 * or `ANTHROPIC_API_KEY`; `agent_runtime.access_mode = read_only` offers only reading tools); every other
 * interface runs the tool loop over its provider, routed as `llmPortFor` routes it (`langchain_deep_agents`
 * included: DeepAgents has no JavaScript counterpart). Defaults of each run: `max_turns` =
 * `agent_middleware.limits.model_call_limit` (25), wall-clock limit = `agent_timeout` (180 s), MCP servers
 * from `mcp_urls_dict`; the tool loop runs with the rest of `agent_middleware` ({@link agentMiddlewareFor}).
 * With `recording`, runs are recorded to files or replayed from them (see `recordingAgentPort`); replaying
 * builds no real agent, so it needs no key.
 * @throws {AdapterUnavailableError} for `manual`/`taskeval` (no live model), a missing key or setting.
 * @throws {McpSpecError} for an `mcp_urls_dict` value that is neither a URL nor a command line.
 */
export function agentPortFor(model: ModelConfig, options: AgentRoutingOptions = {}): AgentPort {
  const { recording } = options;
  if (recording === undefined) return liveAgentPortFor(model, options);
  const real = recording.mode === "replay" ? null : liveAgentPortFor(model, options);
  const extraKwargs = requestKwargs(model);
  return recordingAgentPort(real, {
    ...recording,
    modelIdentity: `${model.interface}:${model.model_name}`,
    parameters: {
      temperature: model.temperature,
      max_tokens: model.max_tokens,
      mcp_servers: Object.keys(model.mcp_urls_dict ?? {}).sort(),
      mcp_tool_filter: model.mcp_tool_filter ?? null,
      agent_middleware: model.agent_middleware ?? null,
      ...(extraKwargs === null ? {} : { extra_kwargs: extraKwargs }),
    },
  });
}

function liveAgentPortFor(model: ModelConfig, options: AgentRoutingOptions): AgentPort {
  if (model.interface === "manual" || model.interface === "taskeval") {
    throw new AdapterUnavailableError(
      `model ${model.id}: the ${model.interface} interface replays answers given in advance and has no agent`,
      `${model.interface} has no agent`,
    );
  }
  const maxTurns = numberAt(model.agent_middleware, ["limits", "model_call_limit"]);
  const defaults = {
    mcp: mcpAttachmentFor(model),
    ...(maxTurns === undefined ? {} : { maxTurns }),
    ...(model.agent_timeout === null ? {} : { timeoutMs: model.agent_timeout * 1000 }),
  };
  const env = options.env ?? process.env;
  if (model.interface === "claude_agent_sdk") {
    return claudeAgentPort({
      ...defaults,
      modelName: model.model_name ?? "",
      apiKey: model.anthropic_api_key?.reveal() ?? extraString(model, "api_key"),
      baseURL: model.anthropic_base_url ?? extraString(model, "base_url"),
      env,
      readOnly: model.agent_runtime?.access_mode === "read_only",
      container: deepAgentContainerFor(model.agent_runtime ?? null),
      ...(options.pathToClaudeCodeExecutable === undefined
        ? {}
        : { pathToClaudeCodeExecutable: options.pathToClaudeCodeExecutable }),
    });
  }
  const target = languageModelFor(model, { env });
  return toolLoopAgent(target, {
    ...defaults,
    ...((options.role ?? "answering") === "answering"
      ? { middleware: agentMiddlewareFor(model, target, env) }
      : {}),
    ...(options.tools === undefined ? {} : { tools: options.tools }),
  });
}

/**
 * The tool loop's middleware from a model's `agent_middleware` (defaults as in the original, spec 04 §3):
 * model-call retries (2, backoff from 2 s, ×2, at most 10 s, ±25 % jitter; then a placeholder message, or an
 * error with `on_failure: raise`), MCP tool-call retries (3, from 1 s, ×2; then an error result for the
 * model), 50 tool calls per run, and summarisation of the conversation at `summarization.trigger_tokens`, else
 * `max_context_tokens`, else 80 % of 100 000 estimated tokens, by the agent's model or `summarization.model`
 * (a model name at the same provider and endpoint).
 */
export function agentMiddlewareFor(
  model: ModelConfig,
  target: LanguageModelTarget,
  env: ProviderEnv,
): AgentMiddleware {
  const config = AgentMiddlewareConfigSchema.parse(model.agent_middleware ?? {});
  const { limits, model_retry: modelRetry, tool_retry: toolRetry, summarization } = config;
  return {
    toolCallLimit: limits.tool_call_limit,
    toolLimitExceeded: limits.exit_behavior === "end" ? "refuse" : "error",
    modelRetry: {
      maxRetries: modelRetry.max_retries,
      backoffFactor: modelRetry.backoff_factor,
      initialDelayMs: modelRetry.initial_delay * 1000,
      maxDelayMs: modelRetry.max_delay * 1000,
      jitter: modelRetry.jitter,
      onFailure: modelRetry.on_failure,
    },
    toolRetry: {
      maxRetries: toolRetry.max_retries,
      backoffFactor: toolRetry.backoff_factor,
      initialDelayMs: toolRetry.initial_delay * 1000,
      maxDelayMs: TOOL_RETRY_MAX_DELAY_MS,
      jitter: true,
      onFailure: toolRetry.on_failure,
    },
    summarization: summarization.enabled
      ? {
          triggerTokens: summarizationTrigger(config, model.max_context_tokens),
          keepMessages: summarization.keep_messages,
          model:
            summarization.model === null
              ? target
              : languageModelFor({ ...model, model_name: summarization.model }, { env }),
        }
      : null,
  };
}

/** The original's tool retries wait at most 60 s (LangChain's default; `tool_retry` has no `max_delay`). */
const TOOL_RETRY_MAX_DELAY_MS = 60_000;
