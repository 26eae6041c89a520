/**
 * The embedding port (spec 04 §10 "provide an embedding-provider port"): texts in, vectors out, through the
 * AI SDK's `embedMany` against an OpenAI-compatible endpoint or the OpenAI API.
 */
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { type EmbeddingModel, embedMany } from "ai";
import { callSignal, toPortError } from "../ai-sdk-bridge.js";
import { AdapterUnavailableError } from "../errors.js";
import type { CallOptions } from "../ports.js";
import type { UsageMetadata } from "../usage.js";
import { requireModelName } from "./api-key.js";
import { type HostedApiOptions, hostedConnection } from "./hosted-api.js";
import { OPENAI_API, type OpenAiOptions } from "./openai.js";
import { type BaseUrlMode, finalizeBaseUrl } from "./openai-endpoint.js";

/** Vectors in the order of the texts, and the tokens the provider counted (as input tokens). */
export interface EmbeddingResult {
  embeddings: number[][];
  usage: UsageMetadata;
}

/** Texts to vectors. */
export interface EmbeddingPort {
  embed(values: string[], options?: CallOptions): Promise<EmbeddingResult>;
  /** Releases resources; idempotent. */
  close(): Promise<void>;
}

/** An AI SDK embedding model and how to call it. */
export interface EmbeddingModelTarget {
  model: EmbeddingModel;
  modelName: string;
  /** Default per-call timeout in milliseconds (120 000 when absent). */
  requestTimeoutMs?: number;
  /** Values never to show in error messages. */
  secrets?: readonly string[];
}

const DEFAULT_TIMEOUT_MS = 120_000;

/** An `EmbeddingPort` over an AI SDK embedding model; no SDK retries, errors mapped onto the port errors. */
export function embeddingModelPort(target: EmbeddingModelTarget): EmbeddingPort {
  return {
    async embed(values, options = {}) {
      if (values.length === 0) {
        return {
          embeddings: [],
          usage: { input_tokens: 0, output_tokens: 0, total_tokens: 0, model: target.modelName },
        };
      }
      const timeoutMs = options.timeoutMs ?? target.requestTimeoutMs ?? DEFAULT_TIMEOUT_MS;
      const guard = callSignal(timeoutMs, options.signal);
      try {
        const result = await embedMany({
          model: target.model,
          values,
          maxRetries: 0,
          abortSignal: guard.signal,
        });
        // A provider that counts no tokens (the Gemini API) leaves the SDK's sum NaN: counted as none.
        const counted = result.usage?.tokens;
        const tokens = typeof counted === "number" && Number.isFinite(counted) ? counted : 0;
        return {
          embeddings: result.embeddings.map((vector) => [...vector]),
          usage: { input_tokens: tokens, output_tokens: 0, total_tokens: tokens, model: target.modelName },
        };
      } catch (error) {
        throw toPortError(error, {
          model: target.modelName,
          timeoutMs,
          timedOut: guard.timedOut(),
          aborted: guard.aborted(),
          secrets: target.secrets ?? [],
        });
      } finally {
        guard.dispose();
      }
    },
    close: async () => {},
  };
}

/** Settings of an embedding model on an OpenAI-compatible endpoint (vLLM, Ollama, a gateway, ...). */
export interface OpenAiEndpointEmbeddingOptions {
  baseURL: string;
  apiKey: string;
  modelName: string;
  baseUrlMode?: BaseUrlMode;
  requestTimeoutMs?: number;
}

/**
 * An `EmbeddingPort` over an OpenAI-compatible `/embeddings` endpoint.
 * @throws {AdapterUnavailableError} when the base URL, key or model name is missing.
 */
export function openAiEndpointEmbeddings(options: OpenAiEndpointEmbeddingOptions): EmbeddingPort {
  if (!options.baseURL) {
    throw new AdapterUnavailableError(
      "openai_endpoint embeddings need endpoint_base_url",
      "missing endpoint_base_url",
    );
  }
  if (!options.apiKey) {
    throw new AdapterUnavailableError(
      "openai_endpoint embeddings need endpoint_api_key",
      "missing endpoint_api_key",
    );
  }
  requireModelName("openai_endpoint embeddings", options.modelName);
  const provider = createOpenAICompatible({
    name: "openai_endpoint",
    baseURL: finalizeBaseUrl(options.baseURL, options.baseUrlMode),
    apiKey: options.apiKey,
  });
  return embeddingModelPort({
    model: provider.embeddingModel(options.modelName),
    modelName: options.modelName,
    secrets: [options.apiKey],
    ...(options.requestTimeoutMs === undefined ? {} : { requestTimeoutMs: options.requestTimeoutMs }),
  });
}

/** Settings of an OpenAI embedding model (the key and base URL as {@link OpenAiOptions} reads them). */
export interface OpenAiEmbeddingOptions extends HostedApiOptions {
  modelName: string;
  requestTimeoutMs?: number;
}

/**
 * An `EmbeddingPort` over the OpenAI embeddings API.
 * @throws {AdapterUnavailableError} when no key is given or set in `OPENAI_API_KEY`, or the model name is missing.
 */
export function openAiEmbeddings(options: OpenAiEmbeddingOptions): EmbeddingPort {
  const connection = hostedConnection(OPENAI_API, options, "openai embeddings");
  return embeddingModelPort({
    model: createOpenAI(connection).embedding(options.modelName),
    modelName: options.modelName,
    secrets: [connection.apiKey],
    ...(options.requestTimeoutMs === undefined ? {} : { requestTimeoutMs: options.requestTimeoutMs }),
  });
}
