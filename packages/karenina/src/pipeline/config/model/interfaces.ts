/**
 * The original's adapter interfaces (spec 05 §4) and what each becomes here: the AI SDK provider package
 * that serves it, or a non-LLM adapter.
 */

/** `tool_loop` adapters run a tool loop; only `deep_agent` ones may parse agentically. */
export type AgentTier = "tool_loop" | "deep_agent";

/** Where a model is served from in this library. */
export type AdapterTarget =
  | "openai-compatible"
  | "openai"
  | "anthropic"
  | "google"
  | "mistral"
  | "groq"
  | "xai"
  | "deepseek"
  | "together"
  | "ollama"
  | "azure"
  | "bedrock"
  | "cohere"
  | "vertex"
  | "vertex_anthropic"
  | "claude-agent"
  | "deep-agent"
  | "manual"
  | "none";

/** A registered interface of the original, or one of ours. */
export interface InterfaceSpec {
  agentTier: AgentTier;
  requiresProvider: boolean;
  /** The target, or the rule picking it from `model_provider` (the two LangChain-style interfaces). */
  target: AdapterTarget | "by-provider";
  /**
   * The adapter serving single calls (LLM and parser ports) when it differs from `target`: the deep agents
   * answer through an agent runtime but parse with a direct API call (spec 05 §5.3, §5.4).
   */
  callTarget?: AdapterTarget | "by-provider";
}

/**
 * The eight built-in interfaces of the original, keyed by the `interface` string of a model config, plus
 * ours: `openai`, `anthropic`, `google`, `mistral`, `groq`, `xai`, `deepseek`, `together`, `ollama`, `azure`,
 * `bedrock`, `cohere`, `vertex` and `vertex_anthropic` (Claude on Vertex AI) name an AI SDK provider directly
 * (no `model_provider` needed).
 */
export const INTERFACES: Readonly<Record<string, InterfaceSpec>> = Object.freeze({
  langchain: { agentTier: "tool_loop", requiresProvider: true, target: "by-provider" },
  openrouter: { agentTier: "tool_loop", requiresProvider: false, target: "openai-compatible" },
  openai_endpoint: { agentTier: "tool_loop", requiresProvider: false, target: "openai-compatible" },
  claude_tool: { agentTier: "tool_loop", requiresProvider: false, target: "anthropic" },
  claude_agent_sdk: {
    agentTier: "deep_agent",
    requiresProvider: false,
    target: "claude-agent",
    callTarget: "anthropic",
  },
  langchain_deep_agents: {
    agentTier: "deep_agent",
    requiresProvider: true,
    target: "deep-agent",
    callTarget: "by-provider",
  },
  manual: { agentTier: "tool_loop", requiresProvider: false, target: "manual" },
  taskeval: { agentTier: "tool_loop", requiresProvider: false, target: "none" },
  openai: { agentTier: "tool_loop", requiresProvider: false, target: "openai" },
  anthropic: { agentTier: "tool_loop", requiresProvider: false, target: "anthropic" },
  google: { agentTier: "tool_loop", requiresProvider: false, target: "google" },
  mistral: { agentTier: "tool_loop", requiresProvider: false, target: "mistral" },
  groq: { agentTier: "tool_loop", requiresProvider: false, target: "groq" },
  xai: { agentTier: "tool_loop", requiresProvider: false, target: "xai" },
  deepseek: { agentTier: "tool_loop", requiresProvider: false, target: "deepseek" },
  together: { agentTier: "tool_loop", requiresProvider: false, target: "together" },
  ollama: { agentTier: "tool_loop", requiresProvider: false, target: "ollama" },
  azure: { agentTier: "tool_loop", requiresProvider: false, target: "azure" },
  bedrock: { agentTier: "tool_loop", requiresProvider: false, target: "bedrock" },
  cohere: { agentTier: "tool_loop", requiresProvider: false, target: "cohere" },
  vertex: { agentTier: "tool_loop", requiresProvider: false, target: "vertex" },
  vertex_anthropic: { agentTier: "tool_loop", requiresProvider: false, target: "vertex_anthropic" },
});

/**
 * LangChain `model_provider` names (as `init_chat_model` takes them) and the AI SDK provider serving each.
 * LangChain's `bedrock` (`ChatBedrock`) and `bedrock_converse` (`ChatBedrockConverse`) both run on Bedrock's
 * Converse API here; `google_vertexai` (`ChatVertexAI`) is Gemini on Vertex AI, `google_anthropic_vertex`
 * (`ChatAnthropicVertex`) Claude on Vertex AI. Other providers have no adapter here: reach them through
 * `openai_endpoint` when they speak the OpenAI API.
 */
export const PROVIDERS: Readonly<Record<string, AdapterTarget>> = Object.freeze({
  openai: "openai",
  anthropic: "anthropic",
  google_genai: "google",
  mistralai: "mistral",
  groq: "groq",
  xai: "xai",
  deepseek: "deepseek",
  together: "together",
  ollama: "ollama",
  azure_openai: "azure",
  bedrock: "bedrock",
  bedrock_converse: "bedrock",
  cohere: "cohere",
  google_vertexai: "vertex",
  google_anthropic_vertex: "vertex_anthropic",
});

/** The LangChain provider names served here, for messages. */
export function supportedProviderNames(): string {
  return Object.keys(PROVIDERS).join(", ");
}

/** Whether `name` is a registered interface. */
export function isKnownInterface(name: string): name is keyof typeof INTERFACES {
  return Object.hasOwn(INTERFACES, name);
}

/**
 * The adapter serving an (interface, provider) pair, or null when nothing here serves it (an unknown
 * interface, or a LangChain provider without an AI SDK counterpart).
 */
export function adapterTarget(interfaceName: string, provider: string | null): AdapterTarget | null {
  if (!isKnownInterface(interfaceName)) return null;
  return resolveTarget((INTERFACES[interfaceName] as InterfaceSpec).target, provider);
}

/**
 * The adapter serving single LLM and parser calls of an (interface, provider) pair: the interface's own
 * target, except for the deep agents, whose judge calls go straight to the provider's API. Null when
 * nothing here serves it.
 */
export function callAdapterTarget(interfaceName: string, provider: string | null): AdapterTarget | null {
  if (!isKnownInterface(interfaceName)) return null;
  const spec = INTERFACES[interfaceName] as InterfaceSpec;
  return resolveTarget(spec.callTarget ?? spec.target, provider);
}

function resolveTarget(target: AdapterTarget | "by-provider", provider: string | null): AdapterTarget | null {
  if (target !== "by-provider") return target;
  return provider !== null && Object.hasOwn(PROVIDERS, provider)
    ? (PROVIDERS[provider] as AdapterTarget)
    : null;
}
