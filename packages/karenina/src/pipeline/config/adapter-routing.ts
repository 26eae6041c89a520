/**
 * From a model config to the port serving it (spec 05 §4): which adapter, with which key, base URL and call
 * settings. Keys come from the model's secret fields first, then from environment variables.
 */
import {
  AdapterUnavailableError,
  type AzureOptions,
  anthropicModel,
  azureEmbeddings,
  azureModel,
  type BaseUrlMode,
  type BedrockOptions,
  bedrockEmbeddings,
  bedrockModel,
  EMBEDDING_ADAPTERS,
  type EmbeddingPort,
  googleModel,
  HOSTED_CHAT_APIS,
  type HostedChatAdapter,
  hostedChatModel,
  hostedEmbeddings,
  type LanguageModelTarget,
  type LlmPort,
  languageModelLlm,
  languageModelParser,
  type ModelCallSettings,
  type OpenAiEndpointOptions,
  ollamaEmbeddings,
  ollamaModel,
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
  type VertexOptions,
  vertexAnthropicModel,
  vertexEmbeddings,
  vertexModel,
} from "../../llm/index.js";
import type { ModelConfig } from "./model/index.js";
import { callAdapterTarget, INTERFACES, isKnownInterface, supportedProviderNames } from "./model/index.js";

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
export type CallAdapter =
  | "openai_endpoint"
  | "openrouter"
  | "openai"
  | "anthropic"
  | "google"
  | HostedChatAdapter
  | "ollama"
  | "azure"
  | "bedrock"
  | "vertex"
  | "vertex_anthropic";

/** The adapters that a `langchain` provider name (or the interface of the same name) leads to. */
const PROVIDER_ADAPTERS = new Set<string>([
  "openai",
  "anthropic",
  "google",
  ...Object.keys(HOSTED_CHAT_APIS),
  "ollama",
  "azure",
  "bedrock",
  "vertex",
  "vertex_anthropic",
]);

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
  // Azure OpenAI's connection, as LangChain's AzureChatOpenAI takes it.
  "azure_endpoint",
  "azure_deployment",
  "deployment_name",
  "api_version",
  "openai_api_version",
  "resource_name",
  // Amazon Bedrock's connection, as LangChain's ChatBedrockConverse takes it.
  "region_name",
  "region",
  "aws_access_key_id",
  "aws_secret_access_key",
  "aws_session_token",
  "endpoint_url",
  "credentials_profile_name",
  // Cohere's key, as LangChain's ChatCohere takes it.
  "cohere_api_key",
  // Vertex AI's connection, as LangChain's ChatVertexAI takes it.
  "project",
  "location",
  "api_endpoint",
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
 * The adapter serving a model's LLM and parser calls: `openai_endpoint`, `openrouter`, `openai`, `anthropic`,
 * `google`, `mistral`, `groq`, `xai`, `deepseek`, `together`, `ollama`, `azure`, `bedrock`, `cohere`, `vertex`,
 * `vertex_anthropic` as named;
 * `claude_tool` (and the judge calls of `claude_agent_sdk`) → anthropic; `langchain` (and the judge calls of
 * `langchain_deep_agents`) by `model_provider` (see `PROVIDERS`: openai, anthropic, google_genai, mistralai,
 * groq, xai, deepseek, together, ollama, azure_openai, bedrock, bedrock_converse, cohere, google_vertexai,
 * google_anthropic_vertex).
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
      `${label}: interface ${name} needs model_provider (one of ${supportedProviderNames()})`,
      "missing model_provider",
    );
  }
  if (name === "openai_endpoint" || name === "openrouter") return name;
  const target = callAdapterTarget(name, model.model_provider);
  if (target !== null && PROVIDER_ADAPTERS.has(target)) return target as CallAdapter;
  throw new AdapterUnavailableError(
    `${label}: interface ${name}${model.model_provider ? ` with provider ${model.model_provider}` : ""} has no adapter here; the supported providers are ${supportedProviderNames()}; for another provider use openai_endpoint with its OpenAI-compatible URL`,
    "no adapter",
    "openai_endpoint",
  );
}

/**
 * The AI SDK model serving a model config's calls, with its key resolved: the model's secret field
 * (`endpoint_api_key`, or `anthropic_api_key` for Anthropic), then `extra_kwargs.api_key`, then the
 * environment (`OPENAI_API_KEY`; `ANTHROPIC_API_KEY`; `GOOGLE_GENERATIVE_AI_API_KEY`, `GEMINI_API_KEY`,
 * `GOOGLE_API_KEY`; `OPENROUTER_API_KEY`; `MISTRAL_API_KEY`, `GROQ_API_KEY`, `XAI_API_KEY`, `DEEPSEEK_API_KEY`,
 * `TOGETHER_API_KEY`; `AZURE_OPENAI_API_KEY`; `COHERE_API_KEY`, `CO_API_KEY`). `openai_endpoint` takes its key
 * from the model only; `ollama` needs none. Azure's deployment, API version and endpoint may also come from
 * `extra_kwargs` (`azure_deployment`, `api_version`, `azure_endpoint`), as LangChain's `AzureChatOpenAI` takes
 * them; Bedrock's region, access keys and endpoint likewise (see {@link bedrockOptionsFor}); Vertex's project,
 * location and credentials come from the environment or `extra_kwargs` (see {@link vertexOptionsFor}), for
 * Gemini (`vertex`) and Claude (`vertex_anthropic`) alike.
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
    case "ollama":
      return ollamaModel({
        ...settings,
        apiKey: model.endpoint_api_key?.reveal() ?? extraKey,
        baseURL: model.endpoint_base_url ?? extraUrl,
        env,
      });
    case "azure":
      return azureModel(azureOptionsFor(model, env));
    case "bedrock":
      return bedrockModel(bedrockOptionsFor(model, env));
    case "vertex":
      return vertexModel(vertexOptionsFor(model, env));
    case "vertex_anthropic":
      return vertexAnthropicModel(vertexOptionsFor(model, env));
    default:
      return hostedChatModel(adapter, { ...settings, ...hostedKeyAndUrl(model, adapter), env });
  }
}

/**
 * The key and base URL a hosted adapter's model gives: its `endpoint_api_key` (else `extra_kwargs.api_key`, and
 * for Cohere `extra_kwargs.cohere_api_key`) and its `endpoint_base_url` (else `extra_kwargs.base_url`); null
 * where not given, so that the adapter reads the environment.
 */
function hostedKeyAndUrl(model: ModelConfig, adapter: CallAdapter) {
  return {
    apiKey:
      model.endpoint_api_key?.reveal() ??
      extraString(model, "api_key") ??
      (adapter === "cohere" ? extraString(model, "cohere_api_key") : null),
    baseURL: model.endpoint_base_url ?? extraString(model, "base_url"),
  };
}

/**
 * The `azure` adapter settings of a model: the key, endpoint, deployment, API version and resource name from
 * the model's fields, then `extra_kwargs` as LangChain's `AzureChatOpenAI` takes them (`azure_endpoint`,
 * `azure_deployment` or `deployment_name`, `api_version` or `openai_api_version`, `resource_name`).
 */
export function azureOptionsFor(model: ModelConfig, env: ProviderEnv = process.env): AzureOptions {
  return {
    ...modelCallSettings(model),
    apiKey: model.endpoint_api_key?.reveal() ?? extraString(model, "api_key"),
    baseURL:
      model.endpoint_base_url ?? extraString(model, "azure_endpoint") ?? extraString(model, "base_url"),
    deployment: extraString(model, "azure_deployment") ?? extraString(model, "deployment_name"),
    apiVersion: extraString(model, "api_version") ?? extraString(model, "openai_api_version"),
    resourceName: extraString(model, "resource_name"),
    env,
  };
}

/**
 * The `bedrock` adapter settings of a model, as LangChain's `ChatBedrockConverse` takes them: the region from
 * `extra_kwargs.region_name` (or `region`); access keys from `aws_access_key_id`, `aws_secret_access_key`,
 * `aws_session_token`; a Bedrock API key from the model's `endpoint_api_key` (or `extra_kwargs.api_key`); the
 * endpoint from `endpoint_base_url`, `extra_kwargs.endpoint_url` or `base_url`. What is not given is read from
 * `env` (see {@link BedrockOptions}).
 * @throws {AdapterUnavailableError} for `credentials_profile_name`: AWS profiles are not read here.
 */
export function bedrockOptionsFor(model: ModelConfig, env: ProviderEnv = process.env): BedrockOptions {
  if (extraString(model, "credentials_profile_name") !== null) {
    throw new AdapterUnavailableError(
      `model ${model.id}: extra_kwargs.credentials_profile_name names an AWS profile, and profiles are not read here; export the profile's keys (aws configure export-credentials --format env) or use AWS_BEARER_TOKEN_BEDROCK`,
      "AWS profiles unsupported",
    );
  }
  return {
    ...modelCallSettings(model),
    region: extraString(model, "region_name") ?? extraString(model, "region"),
    apiKey: model.endpoint_api_key?.reveal() ?? extraString(model, "api_key"),
    accessKeyId: extraString(model, "aws_access_key_id"),
    secretAccessKey: extraString(model, "aws_secret_access_key"),
    sessionToken: extraString(model, "aws_session_token"),
    baseURL: model.endpoint_base_url ?? extraString(model, "endpoint_url") ?? extraString(model, "base_url"),
    env,
  };
}

/** A host given without a scheme (LangChain's `api_endpoint`, `us-central1-aiplatform.googleapis.com`) as a URL. */
const withScheme = (url: string | null) =>
  url === null || /^https?:\/\//.test(url) ? url : `https://${url}`;

/**
 * The `vertex` and `vertex_anthropic` adapter settings of a model, as LangChain's `ChatVertexAI` and
 * `ChatAnthropicVertex` take them: the project and location
 * from `extra_kwargs.project` and `location`; an express-mode API key from the model's `endpoint_api_key` (or
 * `extra_kwargs.api_key`; Gemini only, `vertex_anthropic` refuses it); the endpoint from `endpoint_base_url`, `extra_kwargs.api_endpoint` (a host) or
 * `base_url`. What is not given is read from `env` (see {@link VertexOptions}: `GOOGLE_VERTEX_PROJECT`,
 * `GOOGLE_VERTEX_LOCATION`, `GOOGLE_APPLICATION_CREDENTIALS`, `GOOGLE_VERTEX_API_KEY`, ...).
 */
export function vertexOptionsFor(model: ModelConfig, env: ProviderEnv = process.env): VertexOptions {
  return {
    ...modelCallSettings(model),
    project: extraString(model, "project"),
    location: extraString(model, "location"),
    apiKey: model.endpoint_api_key?.reveal() ?? extraString(model, "api_key"),
    baseURL:
      model.endpoint_base_url ??
      withScheme(extraString(model, "api_endpoint")) ??
      extraString(model, "base_url"),
    env,
  };
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
 * The `EmbeddingPort` for the embedding model `embeddingModelName` (spec 04 §10), reached through a model
 * config's connection, with the key, URL and environment conventions of its adapter: `openai_endpoint` (the
 * model's base URL and key), `openai`, `mistral` (`mistral-embed`), `together`, `cohere` (`embed-english-v3.0`,
 * ...), `azure` (`embeddingModelName` is the embedding deployment), `ollama` (native `/api/embed`), `bedrock`
 * (`amazon.titan-embed-text-v2:0`, `cohere.embed-english-v3`, ...), `google` (`gemini-embedding-001`,
 * `text-embedding-004`), `openrouter` (its `/embeddings`) and `vertex` (`gemini-embedding-001`,
 * `text-embedding-005`, through `:predict`), as named or through `langchain`'s provider names. The provider's package is imported at the first `embed`.
 * @throws {AdapterUnavailableError} for an adapter whose provider has no embeddings here (the message lists
 * those that have), or when the key or another setting is missing.
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
  const env = options.env ?? process.env;
  const named = { modelName: embeddingModelName, env, ...requestTimeoutMs };
  const adapter = callAdapterFor(model);
  switch (adapter) {
    case "openai":
      return openAiEmbeddings({ ...named, ...hostedKeyAndUrl(model, adapter) });
    case "mistral":
    case "together":
    case "cohere":
    case "google":
    case "openrouter":
      return hostedEmbeddings(adapter, { ...named, ...hostedKeyAndUrl(model, adapter) });
    case "ollama":
      return ollamaEmbeddings({ ...named, ...hostedKeyAndUrl(model, adapter) });
    case "azure":
      return azureEmbeddings({ ...azureOptionsFor(model, env), ...named, deployment: embeddingModelName });
    case "bedrock":
      return bedrockEmbeddings({ ...bedrockOptionsFor(model, env), ...named });
    case "vertex":
      return vertexEmbeddings({ ...vertexOptionsFor(model, env), ...named });
    default:
      throw new AdapterUnavailableError(
        `model ${model.id}: ${adapter}${model.interface === adapter ? "" : ` (interface ${model.interface}${model.model_provider ? `, provider ${model.model_provider}` : ""})`} has no embeddings API here; embeddings are served by ${EMBEDDING_ADAPTERS.join(", ")} models (langchain providers openai, mistralai, together, cohere, azure_openai, ollama, bedrock, google_genai, google_vertexai); set the embedding check's model on one of them`,
        "no embedding adapter",
        "openai_endpoint",
      );
  }
}
