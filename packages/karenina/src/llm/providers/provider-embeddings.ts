/**
 * Embedding ports over the providers reached through the AI SDK's own packages that have an embeddings API:
 * Mistral (`POST /v1/embeddings`, `mistral-embed`), Together (`POST /v1/embeddings`), Cohere (`POST /v2/embed`),
 * Azure OpenAI (an embedding deployment), Ollama's native `POST /api/embed`, and Amazon Bedrock (Titan, Cohere or
 * Nova embedding models through `POST /model/{id}/invoke`). Each is reached with its chat adapter's key, URL and
 * environment conventions, and its package is imported at the first `embed`.
 */
import type { EmbeddingModelV3 } from "@ai-sdk/provider";
import { requireModelName } from "./api-key.js";
import { type AzureOptions, azureConnection, azureProvider } from "./azure.js";
import { type BedrockOptions, bedrockConnection, providerSettings, secretsOf } from "./bedrock.js";
import { type EmbeddingPort, embeddingModelPort } from "./embeddings.js";
import { type HostedApiOptions, type HostedConnection, hostedConnection } from "./hosted-api.js";
import { HOSTED_CHAT_APIS } from "./hosted-chat.js";
import { lazyEmbeddingModel } from "./lazy-embedding-model.js";
import { type OllamaOptions, ollamaBaseUrl } from "./ollama.js";

/**
 * The adapters whose provider has an embeddings API served here, for messages (besides `openai` and
 * `openai_endpoint`, see `embeddings.ts`). Groq, xAI, DeepSeek, Anthropic and OpenRouter have none here.
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
] as const);

/** The hosted chat adapters whose API also embeds. */
export type HostedEmbeddingAdapter = "mistral" | "together" | "cohere";

/** How a hosted API's package makes an embedding model, with the provider name the AI SDK reports for it. */
const HOSTED_EMBEDDERS: Readonly<
  Record<
    HostedEmbeddingAdapter,
    { provider: string; load: (connection: HostedConnection, modelName: string) => Promise<EmbeddingModelV3> }
  >
> = Object.freeze({
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
 * An `EmbeddingPort` over Mistral, Together or Cohere, with the key and base URL read as their chat adapters
 * read them (`MISTRAL_API_KEY`, `TOGETHER_API_KEY`, `COHERE_API_KEY`/`CO_API_KEY`; `MISTRAL_BASE_URL`, ...).
 * Cohere embeds with `input_type: "search_query"` (the AI SDK's default) for both texts of a comparison.
 * @throws {AdapterUnavailableError} when no key is given or set, or the model name is missing.
 * @example
 * const port = hostedEmbeddings("mistral", { modelName: "mistral-embed", env: { MISTRAL_API_KEY: "sk-…" } });
 */
export function hostedEmbeddings(
  adapter: HostedEmbeddingAdapter,
  options: HostedEmbeddingOptions,
): EmbeddingPort {
  const connection = hostedConnection(HOSTED_CHAT_APIS[adapter], options, `${adapter} embeddings`);
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
