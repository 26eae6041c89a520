/**
 * From a model config to the port serving it (spec 05 §4): which adapter, with which key, base URL and call
 * settings. Keys come from the model's secret fields first, then from environment variables.
 */
import {
  AdapterUnavailableError,
  anthropicModel,
  type BaseUrlMode,
  type EmbeddingPort,
  googleModel,
  type LanguageModelTarget,
  type LlmPort,
  languageModelLlm,
  languageModelParser,
  type ModelCallSettings,
  type OpenAiEndpointOptions,
  openAiEmbeddings,
  openAiEndpointEmbeddings,
  openAiEndpointModel,
  openAiModel,
  openRouterModel,
  type ParserPort,
  type ProviderEnv,
  type RecordingMode,
  recordingLlmPort,
  recordingParserPort,
} from "../../llm/index.js";
import type { ModelConfig } from "./model/index.js";
import { callAdapterTarget, INTERFACES, isKnownInterface } from "./model/index.js";

const BASE_URL_MODES = new Set<string>(["auto_v1", "raw"]);

/** How ports are built for a model config. */
export interface PortRoutingOptions {
  /** Where API keys (and `OPENAI_BASE_URL`, `ANTHROPIC_BASE_URL`) are read from; default `process.env`. */
  env?: ProviderEnv;
  /**
   * Record every call's response to files in `dir` (`record`), or answer from them offline (`replay`: no key
   * and no network needed).
   */
  recording?: { dir: string; mode: RecordingMode };
}

/** The adapters a model config can be served by for single calls. */
export type CallAdapter = "openai_endpoint" | "openrouter" | "openai" | "anthropic" | "google";

/**
 * The `openai_endpoint` adapter settings of a model: base URL and key from the model (the key is never read
 * from the environment), `extra_kwargs.endpoint_base_url_mode`, temperature, token cap and timeout.
 * @throws {AdapterUnavailableError} when the model is not an `openai_endpoint` one or a setting is wrong.
 */
export function openAiEndpointOptions(model: ModelConfig): OpenAiEndpointOptions {
  if (model.interface !== "openai_endpoint") {
    throw new AdapterUnavailableError(`model ${model.id} uses ${model.interface}, not openai_endpoint`);
  }
  const mode = model.extra_kwargs?.endpoint_base_url_mode ?? "auto_v1";
  if (typeof mode !== "string" || !BASE_URL_MODES.has(mode)) {
    throw new AdapterUnavailableError(
      `model ${model.id}: extra_kwargs.endpoint_base_url_mode must be auto_v1 or raw, found ${JSON.stringify(mode)}`,
      "invalid endpoint_base_url_mode",
    );
  }
  return {
    ...modelCallSettings(model),
    baseURL: model.endpoint_base_url ?? "",
    apiKey: model.endpoint_api_key?.reveal() ?? "",
    baseUrlMode: mode as BaseUrlMode,
  };
}

function modelCallSettings(model: ModelConfig): ModelCallSettings {
  const extraKwargs = requestKwargs(model);
  return {
    modelName: model.model_name ?? "",
    temperature: model.temperature,
    maxTokens: model.max_tokens,
    ...(model.request_timeout === null ? {} : { requestTimeoutMs: model.request_timeout * 1000 }),
    ...(extraKwargs === null ? {} : { extraKwargs }),
  };
}

/**
 * `extra_kwargs` keys that are not request arguments: the library's own settings (spec 04 §3, 05 §5), the key
 * and URL of the client, and client settings the model's own fields already give (timeout, retries).
 */
const CONTROL_KWARGS = new Set([
  "endpoint_base_url_mode",
  "claude_sdk_parser_openai_base_url",
  "effort",
  "agent_runtime",
  "api_key",
  "base_url",
  "timeout",
  "request_timeout",
  "max_retries",
]);

/** Keys whose object the original's OpenAI client merges into the request body (LangChain `ChatOpenAI`). */
const BODY_KWARGS = ["model_kwargs", "extra_body"];

/**
 * The request arguments among a model's `extra_kwargs` (spec 05 §5.1: the original passes them to its chat
 * client, which sends them with each request): every key but the control keys, with `model_kwargs` and
 * `extra_body` opened into their fields. Null when there are none.
 */
export function requestKwargs(model: ModelConfig): Record<string, unknown> | null {
  const sent: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(model.extra_kwargs ?? {})) {
    if (CONTROL_KWARGS.has(key)) continue;
    if (BODY_KWARGS.includes(key) && value !== null && typeof value === "object" && !Array.isArray(value)) {
      Object.assign(sent, value);
    } else {
      sent[key] = value;
    }
  }
  return Object.keys(sent).length === 0 ? null : sent;
}

/** A string setting of `extra_kwargs` (the original passes them to the client: `api_key`, `base_url`). */
function extraString(model: ModelConfig, key: string): string | null {
  const value = model.extra_kwargs?.[key];
  return typeof value === "string" && value !== "" ? value : null;
}

const KNOWN = () => Object.keys(INTERFACES).join(", ");

/**
 * The adapter serving a model's LLM and parser calls: `openai_endpoint` and `openrouter` as named; `openai`,
 * `anthropic`, `google` as named; `claude_tool` (and the judge calls of `claude_agent_sdk`) → anthropic;
 * `langchain` (and the judge calls of `langchain_deep_agents`) by `model_provider`: openai, anthropic,
 * google_genai.
 * @throws {AdapterUnavailableError} for `manual` and `taskeval` (they have no LLM), an unknown interface, a
 * missing `model_name` or `model_provider`, or a provider with no adapter here.
 */
export function callAdapterFor(model: ModelConfig): CallAdapter {
  const name = model.interface;
  const label = `model ${model.id ?? model.model_name ?? "(no id)"}`;
  if (name === "manual" || name === "taskeval") {
    throw new AdapterUnavailableError(
      `${label}: the ${name} interface replays answers given in advance and has no LLM or parser port; judge with a separate parsing model (openai, anthropic, google, openrouter, openai_endpoint or langchain)`,
      `${name} has no LLM`,
    );
  }
  if (!isKnownInterface(name)) {
    throw new AdapterUnavailableError(
      `${label}: unknown interface ${JSON.stringify(name)} (known: ${KNOWN()}); use langchain with a model_provider, or openai_endpoint for any OpenAI-compatible server`,
      "unknown interface",
      "langchain",
    );
  }
  if (!model.model_name) {
    throw new AdapterUnavailableError(`${label}: interface ${name} needs model_name`, "missing model_name");
  }
  if (INTERFACES[name]?.requiresProvider && !model.model_provider) {
    throw new AdapterUnavailableError(
      `${label}: interface ${name} needs model_provider (openai, anthropic or google_genai)`,
      "missing model_provider",
    );
  }
  if (name === "openai_endpoint" || name === "openrouter") return name;
  const target = callAdapterTarget(name, model.model_provider);
  if (target === "openai" || target === "anthropic" || target === "google") return target;
  throw new AdapterUnavailableError(
    `${label}: interface ${name}${model.model_provider ? ` with provider ${model.model_provider}` : ""} has no adapter here; use the openai, anthropic or google interface, or openai_endpoint with the provider's OpenAI-compatible URL`,
    "no adapter",
    "openai_endpoint",
  );
}

/**
 * The AI SDK model serving a model config's calls, with its key resolved: the model's secret field
 * (`endpoint_api_key`, or `anthropic_api_key` for Anthropic), then `extra_kwargs.api_key`, then the
 * environment (`OPENAI_API_KEY`; `ANTHROPIC_API_KEY`; `GOOGLE_GENERATIVE_AI_API_KEY`, `GEMINI_API_KEY`,
 * `GOOGLE_API_KEY`; `OPENROUTER_API_KEY`). `openai_endpoint` takes its key from the model only.
 * @throws {AdapterUnavailableError} as {@link callAdapterFor} does, or naming the variable to set when no key is found.
 */
export function languageModelFor(model: ModelConfig, options: PortRoutingOptions = {}): LanguageModelTarget {
  const adapter = callAdapterFor(model);
  if (adapter === "openai_endpoint") return openAiEndpointModel(openAiEndpointOptions(model));
  const env = options.env ?? process.env;
  const settings = modelCallSettings(model);
  const extraKey = extraString(model, "api_key");
  const extraUrl = extraString(model, "base_url");
  switch (adapter) {
    case "anthropic":
      return anthropicModel({
        ...settings,
        apiKey: model.anthropic_api_key?.reveal() ?? extraKey,
        baseURL: model.anthropic_base_url ?? extraUrl,
        env,
      });
    case "openai":
      return openAiModel({
        ...settings,
        apiKey: model.endpoint_api_key?.reveal() ?? extraKey,
        baseURL: model.endpoint_base_url ?? extraUrl,
        env,
      });
    case "google":
      return googleModel({
        ...settings,
        apiKey: model.endpoint_api_key?.reveal() ?? extraKey,
        baseURL: model.endpoint_base_url ?? extraUrl,
        env,
      });
    case "openrouter":
      return openRouterModel({
        ...settings,
        apiKey: model.endpoint_api_key?.reveal() ?? extraKey,
        baseURL: model.endpoint_base_url ?? extraUrl,
        env,
      });
  }
}

/**
 * What identifies a model's requests in recordings: its adapter and model name, and its sampling settings
 * (request arguments from `extra_kwargs` only when there are some, so recordings of other models keep their keys).
 */
function recordingIdentity(model: ModelConfig) {
  const extraKwargs = requestKwargs(model);
  return {
    modelIdentity: `${callAdapterFor(model)}:${model.model_name}`,
    parameters: {
      temperature: model.temperature,
      max_tokens: model.max_tokens,
      ...(extraKwargs === null ? {} : { extra_kwargs: extraKwargs }),
    },
  };
}

/**
 * The `LlmPort` serving a model (see {@link languageModelFor} for adapters and keys). With `recording`, calls
 * are recorded to files or replayed from them; replaying builds no real port, so it needs no key.
 * @throws {AdapterUnavailableError} when no adapter serves the model or its key is missing.
 */
export function llmPortFor(model: ModelConfig, options: PortRoutingOptions = {}): LlmPort {
  const { recording } = options;
  if (recording === undefined) return languageModelLlm(languageModelFor(model, options));
  const real = recording.mode === "replay" ? null : languageModelLlm(languageModelFor(model, options));
  return recordingLlmPort(real, { ...recording, ...recordingIdentity(model) });
}

/**
 * The `ParserPort` serving a judge model (see {@link languageModelFor}); `recording` as for {@link llmPortFor}.
 * @throws {AdapterUnavailableError} when no adapter serves the model or its key is missing.
 */
export function parserPortFor(model: ModelConfig, options: PortRoutingOptions = {}): ParserPort {
  const { recording } = options;
  if (recording === undefined) return languageModelParser(languageModelFor(model, options));
  const real = recording.mode === "replay" ? null : languageModelParser(languageModelFor(model, options));
  return recordingParserPort(real, { ...recording, ...recordingIdentity(model) });
}

/**
 * The `EmbeddingPort` for the embedding model `embeddingModelName`, reached through a model config's
 * connection: an `openai_endpoint` model's base URL and key, or an OpenAI model's (`openai`, or `langchain`
 * with provider `openai`) key and optional `endpoint_base_url`.
 * @throws {AdapterUnavailableError} for any other model, or when the key is missing.
 */
export function embeddingPortFor(
  model: ModelConfig,
  embeddingModelName: string,
  options: Pick<PortRoutingOptions, "env"> = {},
): EmbeddingPort {
  const requestTimeoutMs =
    model.request_timeout === null ? {} : { requestTimeoutMs: model.request_timeout * 1000 };
  if (model.interface === "openai_endpoint") {
    const endpoint = openAiEndpointOptions(model);
    return openAiEndpointEmbeddings({
      baseURL: endpoint.baseURL,
      apiKey: endpoint.apiKey,
      modelName: embeddingModelName,
      ...(endpoint.baseUrlMode === undefined ? {} : { baseUrlMode: endpoint.baseUrlMode }),
      ...requestTimeoutMs,
    });
  }
  const adapter = callAdapterFor(model);
  if (adapter === "openai") {
    return openAiEmbeddings({
      modelName: embeddingModelName,
      apiKey: model.endpoint_api_key?.reveal() ?? extraString(model, "api_key"),
      baseURL: model.endpoint_base_url ?? extraString(model, "base_url"),
      env: options.env ?? process.env,
      ...requestTimeoutMs,
    });
  }
  throw new AdapterUnavailableError(
    `model ${model.id}: embeddings are served through openai_endpoint or openai models, not ${model.interface}${model.model_provider ? ` (provider ${model.model_provider})` : ""}`,
    "no embedding adapter",
    "openai_endpoint",
  );
}
