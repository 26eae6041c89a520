/**
 * Embedding ports over the providers reached through the AI SDK's own packages that have an embeddings API:
 * Mistral (`POST /v1/embeddings`, `mistral-embed`), Together (`POST /v1/embeddings`), Cohere (`POST /v2/embed`),
 * Azure OpenAI (an embedding deployment), Ollama's native `POST /api/embed`, and Amazon Bedrock (Titan, Cohere or
 * Nova embedding models through `POST /model/{id}/invoke`), the Gemini API (`batchEmbedContents`, one text at
 * `embedContent`), OpenRouter (OpenAI-compatible `POST /embeddings`) and Vertex AI (`:predict`). Each is reached with its chat adapter's key, URL and
 * environment conventions, and its package is imported at the first `embed`.
 */
import type { EmbeddingModelV3 } from "@ai-sdk/provider";
import { requireModelName } from "./api-key.js";
import { type AzureOptions, azureConnection, azureProvider } from "./azure.js";
import { type BedrockOptions, bedrockConnection, providerSettings, secretsOf } from "./bedrock.js";
import { type EmbeddingPort, embeddingModelPort } from "./embeddings.js";
import { GOOGLE_API_KEY_VARIABLES, GOOGLE_BASE_URL } from "./google.js";
import {
  type HostedApi,
  type HostedApiOptions,
  type HostedConnection,
  hostedConnection,
} from "./hosted-api.js";
import { HOSTED_CHAT_APIS } from "./hosted-chat.js";
import { lazyEmbeddingModel } from "./lazy-embedding-model.js";
import { type OllamaOptions, ollamaBaseUrl } from "./ollama.js";
import { OPENROUTER_BASE_URL } from "./openrouter.js";
import { type VertexOptions, vertexConnection, vertexEmbeddingModel, vertexSecrets } from "./vertex.js";

/**
 * The adapters whose provider has an embeddings API served here, for messages (besides `openai` and
 * `openai_endpoint`, see `embeddings.ts`). Groq, xAI, DeepSeek and Anthropic have none here.
 */
export const EMBEDDING_ADAPTERS = Object.freeze([
  "openai_endpoint",
  "openai",
  "mistral",
  "together",
  "cohere",
  "azure",
  "ollama",
  "bedrock",
  "google",
  "openrouter",
  "vertex",
] as const);

/** The hosted APIs whose API also embeds: three hosted chat APIs, the Gemini API and OpenRouter. */
export type HostedEmbeddingAdapter = "mistral" | "together" | "cohere" | "google" | "openrouter";

/** The Gemini API and OpenRouter as their chat adapters reach them (keys, base URLs). */
const EMBEDDING_APIS: Readonly<Record<"google" | "openrouter", HostedApi>> = Object.freeze({
  google: {
    adapter: "google",
    keyVariables: GOOGLE_API_KEY_VARIABLES,
    keySetting: "endpoint_api_key",
    baseURL: GOOGLE_BASE_URL,
  },
  openrouter: {
    adapter: "openrouter",
    keyVariables: ["OPENROUTER_API_KEY"],
    keySetting: "endpoint_api_key",
    baseURL: OPENROUTER_BASE_URL,
  },
});

/** How a hosted API's package makes an embedding model, with the provider name the AI SDK reports for it. */
const HOSTED_EMBEDDERS: Readonly<
  Record<
    HostedEmbeddingAdapter,
    { provider: string; load: (connection: HostedConnection, modelName: string) => Promise<EmbeddingModelV3> }
  >
> = Object.freeze({
  google: {
    provider: "google.generative-ai",
    load: async ({ apiKey, baseURL }, modelName) =>
      (await import("@ai-sdk/google")).createGoogleGenerativeAI({ apiKey, baseURL }).embedding(modelName),
  },
  openrouter: {
    provider: "openrouter.embedding",
    load: async ({ apiKey, baseURL }, modelName) =>
      (await import("@ai-sdk/openai-compatible"))
        .createOpenAICompatible({ name: "openrouter", apiKey, baseURL })
        .embeddingModel(modelName),
  },
  mistral: {
    provider: "mistral.embedding",
    load: async ({ apiKey, baseURL }, modelName) =>
      (await import("@ai-sdk/mistral")).createMistral({ apiKey, baseURL }).embedding(modelName),
  },
  together: {
    provider: "togetherai.embedding",
    load: async ({ apiKey, baseURL }, modelName) =>
      (await import("@ai-sdk/togetherai")).createTogetherAI({ apiKey, baseURL }).embeddingModel(modelName),
  },
  cohere: {
    provider: "cohere.textEmbedding",
    load: async ({ apiKey, baseURL }, modelName) =>
      (await import("@ai-sdk/cohere")).createCohere({ apiKey, baseURL }).embedding(modelName),
  },
});

/** The default per-call timeout of an embedding port, in milliseconds. */
interface EmbeddingTimeout {
  requestTimeoutMs?: number | undefined;
}

const timeoutOf = ({ requestTimeoutMs }: EmbeddingTimeout) =>
  requestTimeoutMs === undefined ? {} : { requestTimeoutMs };

/** Settings of a hosted embedding model: its name, and the key and base URL as the chat adapter reads them. */
export interface HostedEmbeddingOptions extends HostedApiOptions, EmbeddingTimeout {
  modelName: string;
}

/**
 * An `EmbeddingPort` over Mistral, Together, Cohere, the Gemini API or OpenRouter, with the key and base URL read
 * as their chat adapters read them (`MISTRAL_API_KEY`, `TOGETHER_API_KEY`, `COHERE_API_KEY`/`CO_API_KEY`,
 * `GOOGLE_GENERATIVE_AI_API_KEY`/`GEMINI_API_KEY`/`GOOGLE_API_KEY`, `OPENROUTER_API_KEY`; `MISTRAL_BASE_URL`,
 * ...). Cohere embeds with `input_type: "search_query"` (the AI SDK's default) for both texts of a comparison;
 * the Gemini API (`gemini-embedding-001`, `text-embedding-004`) reports no token counts, so its usage is 0.
 * @throws {AdapterUnavailableError} when no key is given or set, or the model name is missing.
 * @example
 * const port = hostedEmbeddings("mistral", { modelName: "mistral-embed", env: { MISTRAL_API_KEY: "sk-…" } });
 */
export function hostedEmbeddings(
  adapter: HostedEmbeddingAdapter,
  options: HostedEmbeddingOptions,
): EmbeddingPort {
  const api =
    adapter === "google" || adapter === "openrouter" ? EMBEDDING_APIS[adapter] : HOSTED_CHAT_APIS[adapter];
  const connection = hostedConnection(api, options, `${adapter} embeddings`);
  const embedder = HOSTED_EMBEDDERS[adapter];
  return embeddingModelPort({
    model: lazyEmbeddingModel({
      provider: embedder.provider,
      modelId: options.modelName,
      load: () => embedder.load(connection, options.modelName),
    }),
    modelName: options.modelName,
    secrets: [connection.apiKey],
    ...timeoutOf(options),
  });
}

/**
 * An `EmbeddingPort` over an Azure OpenAI embedding deployment (`deployment`, else `modelName`), reached as the
 * `azure` chat adapter is (see {@link AzureOptions}): `/openai/v1/embeddings` with the `v1` API version, else
 * `/openai/deployments/<deployment>/embeddings?api-version=...`; the key in `api-key`.
 * @throws {AdapterUnavailableError} when the key, the endpoint or the deployment is missing.
 */
export function azureEmbeddings(options: AzureOptions): EmbeddingPort {
  const { deployment, apiKey } = azureConnection(options);
  return embeddingModelPort({
    model: lazyEmbeddingModel({
      provider: "azure.embeddings",
      modelId: deployment,
      load: async () => (await azureProvider(options)).embedding(deployment),
    }),
    modelName: deployment,
    secrets: [apiKey],
    ...timeoutOf(options),
  });
}

/** Settings of an Ollama embedding model: its name, and the server and optional key as the chat adapter reads them. */
export interface OllamaEmbeddingOptions
  extends Pick<OllamaOptions, "baseURL" | "apiKey" | "env">,
    EmbeddingTimeout {
  modelName: string;
}

/**
 * An `EmbeddingPort` over Ollama's native `POST /api/embed` (e.g. `nomic-embed-text`), on the server the
 * `ollama` chat adapter reaches (`baseURL`, else `OLLAMA_HOST`, else `http://127.0.0.1:11434`); its token count
 * is Ollama's `prompt_eval_count`.
 * @throws {AdapterUnavailableError} when the model name is missing.
 */
export function ollamaEmbeddings(options: OllamaEmbeddingOptions): EmbeddingPort {
  requireModelName("ollama embeddings", options.modelName);
  const baseURL = ollamaBaseUrl(options);
  const headers = options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : undefined;
  return embeddingModelPort({
    model: lazyEmbeddingModel({
      provider: "ollama.embedding",
      modelId: options.modelName,
      load: async () =>
        (await import("ollama-ai-provider-v2"))
          .createOllama({ baseURL, ...(headers === undefined ? {} : { headers }) })
          .embedding(options.modelName),
    }),
    modelName: options.modelName,
    secrets: options.apiKey ? [options.apiKey] : [],
    ...timeoutOf(options),
  });
}

/**
 * An `EmbeddingPort` over an Amazon Bedrock embedding model, reached and signed as the `bedrock` chat adapter
 * is (see {@link BedrockOptions}). The family follows the model id as the AI SDK reads it: `cohere.embed-*`
 * embeds up to 96 texts a call (`input_type: "search_query"`), `amazon.nova-*embed*` and Titan
 * (`amazon.titan-embed-text-v2:0`, the rest) one text a call, the calls made in parallel. Tokens are Titan's
 * `inputTextTokenCount`, Nova's `inputTokenCount`, else the `x-amzn-bedrock-input-token-count` header.
 * @throws {AdapterUnavailableError} when the model name, the credentials or the region is missing.
 */
export function bedrockEmbeddings(options: BedrockOptions): EmbeddingPort {
  requireModelName("bedrock embeddings", options.modelName);
  const connection = bedrockConnection(options);
  return embeddingModelPort({
    model: lazyEmbeddingModel({
      provider: "amazon-bedrock",
      modelId: options.modelName,
      load: async () =>
        (await import("@ai-sdk/amazon-bedrock"))
          .createAmazonBedrock(providerSettings(connection))
          .embedding(options.modelName),
    }),
    modelName: options.modelName,
    secrets: secretsOf(connection.credentials),
    ...timeoutOf(options),
  });
}

/**
 * An `EmbeddingPort` over a Vertex AI embedding model (`gemini-embedding-001`, `text-embedding-005`,
 * `text-multilingual-embedding-002`) through `:predict`, reached and authorised as the `vertex` chat adapter is
 * (see {@link VertexOptions}); tokens are the sum of each prediction's `statistics.token_count`.
 * @throws {AdapterUnavailableError} when the model name, the credentials or the project is missing.
 */
export function vertexEmbeddings(options: VertexOptions): EmbeddingPort {
  requireModelName("vertex embeddings", options.modelName);
  const connection = vertexConnection(options);
  return embeddingModelPort({
    model: lazyEmbeddingModel({
      provider: "google.vertex.embedding",
      modelId: options.modelName,
      load: () => vertexEmbeddingModel(connection, options.modelName),
    }),
    modelName: options.modelName,
    secrets: vertexSecrets(connection),
    ...timeoutOf(options),
  });
}
