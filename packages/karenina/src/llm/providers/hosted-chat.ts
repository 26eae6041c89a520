/**
 * The hosted chat APIs reached through the AI SDK's own provider packages, each imported at its model's first
 * call: `mistral` (`@ai-sdk/mistral`), `groq` (`@ai-sdk/groq`), `xai` (`@ai-sdk/xai`), `deepseek`
 * (`@ai-sdk/deepseek`), `together` (`@ai-sdk/togetherai`) and `cohere` (`@ai-sdk/cohere`, Cohere's v2 chat API).
 * Each is also the adapter of `langchain` with the original's provider name (`mistralai`, `groq`, `xai`,
 * `deepseek`, `together`, `cohere`).
 */
import type { LanguageModelV3 } from "@ai-sdk/provider";
import { type LanguageModelTarget, languageModelLlm, languageModelParser } from "../ai-sdk-ports.js";
import type { LlmPort, ParserPort } from "../ports.js";
import { type HostedApi, type HostedConnection, type HostedModelOptions, hostedModel } from "./hosted-api.js";
import { lazyLanguageModel } from "./lazy-model.js";

/** The names of the hosted chat adapters. */
export type HostedChatAdapter = "mistral" | "groq" | "xai" | "deepseek" | "together" | "cohere";

/** A hosted chat API: how it is reached, and how its provider package makes a chat model. */
export interface HostedChatApi extends HostedApi {
  /** The provider name the AI SDK reports for its chat models. */
  provider: string;
  /** Imports the provider package and makes the chat model `modelName` for the connection. */
  load: (connection: HostedConnection, modelName: string) => Promise<LanguageModelV3>;
}

/**
 * The v2 API under a Cohere URL, given as Cohere's clients take it (a host, `https://api.cohere.com`) or with
 * its version (`.../v1` or `.../v2`).
 * @example
 * cohereV2Url("http://127.0.0.1:8080/"); // "http://127.0.0.1:8080/v2"
 */
export function cohereV2Url(given: string): string {
  return `${given.replace(/\/+$/, "").replace(/\/v[12]$/, "")}/v2`;
}

/**
 * Keys and base URLs from the environment as the original's LangChain clients read them (`MISTRAL_API_KEY`,
 * `GROQ_API_KEY`, ...; `MISTRAL_BASE_URL`, `GROQ_API_BASE`, ...), with the AI SDK's own key names where they
 * differ (`TOGETHER_AI_API_KEY`). Cohere's key is `COHERE_API_KEY` (LangChain's and the AI SDK's) or `CO_API_KEY`
 * (Cohere's own SDK), and its URL a host (`CO_API_URL`, `https://api.cohere.com`) to which `/v2` is added.
 */
export const HOSTED_CHAT_APIS: Readonly<Record<HostedChatAdapter, HostedChatApi>> = Object.freeze({
  mistral: {
    adapter: "mistral",
    keyVariables: ["MISTRAL_API_KEY"],
    keySetting: "endpoint_api_key",
    baseURL: "https://api.mistral.ai/v1",
    baseUrlVariable: "MISTRAL_BASE_URL",
    provider: "mistral.chat",
    load: async ({ apiKey, baseURL }, modelName) =>
      (await import("@ai-sdk/mistral")).createMistral({ apiKey, baseURL }).chat(modelName),
  },
  groq: {
    adapter: "groq",
    keyVariables: ["GROQ_API_KEY"],
    keySetting: "endpoint_api_key",
    baseURL: "https://api.groq.com/openai/v1",
    baseUrlVariable: "GROQ_API_BASE",
    provider: "groq.chat",
    load: async ({ apiKey, baseURL }, modelName) =>
      (await import("@ai-sdk/groq")).createGroq({ apiKey, baseURL }).languageModel(modelName),
  },
  xai: {
    adapter: "xai",
    keyVariables: ["XAI_API_KEY"],
    keySetting: "endpoint_api_key",
    baseURL: "https://api.x.ai/v1",
    baseUrlVariable: "XAI_API_BASE",
    provider: "xai.chat",
    load: async ({ apiKey, baseURL }, modelName) =>
      (await import("@ai-sdk/xai")).createXai({ apiKey, baseURL }).chat(modelName),
  },
  deepseek: {
    adapter: "deepseek",
    keyVariables: ["DEEPSEEK_API_KEY"],
    keySetting: "endpoint_api_key",
    baseURL: "https://api.deepseek.com",
    baseUrlVariable: "DEEPSEEK_API_BASE",
    provider: "deepseek.chat",
    load: async ({ apiKey, baseURL }, modelName) =>
      (await import("@ai-sdk/deepseek")).createDeepSeek({ apiKey, baseURL }).chat(modelName),
  },
  together: {
    adapter: "together",
    keyVariables: ["TOGETHER_API_KEY", "TOGETHER_AI_API_KEY"],
    keySetting: "endpoint_api_key",
    baseURL: "https://api.together.xyz/v1",
    baseUrlVariable: "TOGETHER_API_BASE",
    provider: "togetherai.chat",
    load: async ({ apiKey, baseURL }, modelName) =>
      (await import("@ai-sdk/togetherai")).createTogetherAI({ apiKey, baseURL }).chatModel(modelName),
  },
  cohere: {
    adapter: "cohere",
    keyVariables: ["COHERE_API_KEY", "CO_API_KEY"],
    keySetting: "endpoint_api_key",
    baseURL: "https://api.cohere.com/v2",
    baseUrlVariable: "CO_API_URL",
    finalizeBaseUrl: cohereV2Url,
    provider: "cohere.chat",
    load: async ({ apiKey, baseURL }, modelName) =>
      (await import("@ai-sdk/cohere")).createCohere({ apiKey, baseURL }).languageModel(modelName),
  },
});

/**
 * Settings of a hosted chat model. The key, sent as a bearer token, is else the API's key variable in `env`;
 * the URL prefix (as the API's own, e.g. `https://api.mistral.ai/v1`) is else its base-URL variable in `env`,
 * else the API's own.
 */
export interface HostedChatOptions extends HostedModelOptions {}

/**
 * The AI SDK model behind a hosted chat adapter; its provider package is imported at the first call.
 * @throws {AdapterUnavailableError} when no key is given or set, or the model name is missing.
 */
export function hostedChatModel(adapter: HostedChatAdapter, options: HostedChatOptions): LanguageModelTarget {
  const api = HOSTED_CHAT_APIS[adapter];
  return hostedModel(api, options, (connection) =>
    lazyLanguageModel({
      provider: api.provider,
      modelId: options.modelName,
      load: () => api.load(connection, options.modelName),
    }),
  );
}

/** An `LlmPort` over a hosted chat API. */
export function hostedChatLlm(adapter: HostedChatAdapter, options: HostedChatOptions): LlmPort {
  return languageModelLlm(hostedChatModel(adapter, options));
}

/**
 * A `ParserPort` over a hosted chat API: native structured output (JSON-schema `response_format`), asked again
 * without it when the model refuses it (HTTP 400/422), then JSON extraction, repair and one feedback retry.
 */
export function hostedChatParser(adapter: HostedChatAdapter, options: HostedChatOptions): ParserPort {
  return languageModelParser(hostedChatModel(adapter, options));
}
