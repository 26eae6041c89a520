/**
 * The `ollama` adapter (and `langchain` with `model_provider: "ollama"`): Ollama's native chat API
 * (`POST /api/chat`) through the community AI SDK provider `ollama-ai-provider-v2`, imported at the first
 * call. Sampling settings go where Ollama reads them (`options.temperature`, `options.num_predict`, ...);
 * structured output is Ollama's `format` (a JSON schema), with the JSON-extraction fallbacks behind it.
 */
import type { JSONObject } from "@ai-sdk/provider";
import {
  callSettings,
  type LanguageModelTarget,
  languageModelLlm,
  languageModelParser,
  type ModelCallSettings,
} from "../ai-sdk-ports.js";
import type { LlmPort, ParserPort } from "../ports.js";
import { type ProviderEnv, requireModelName } from "./api-key.js";
import { lazyLanguageModel } from "./lazy-model.js";

/** Where Ollama listens unless told otherwise (its own default). */
export const OLLAMA_HOST = "http://127.0.0.1:11434";

/**
 * Settings of an Ollama model. The server is `baseURL` (a host such as `http://gpu-box:11434`, with or without
 * `/api`), else `OLLAMA_HOST` from `env` (as the Ollama CLI and LangChain's `ChatOllama` read it; a bare
 * `host:port` gets `http://`), else `http://127.0.0.1:11434`. Ollama needs no key; one given is sent as a
 * bearer token (for a proxy that asks for one).
 */
export interface OllamaOptions extends ModelCallSettings {
  baseURL?: string | null;
  apiKey?: string | null;
  env?: ProviderEnv;
}

/** Request arguments Ollama reads from its `options` object (the others are not sent). */
const OLLAMA_OPTIONS = new Set([
  "num_ctx",
  "repeat_last_n",
  "repeat_penalty",
  "seed",
  "stop",
  "top_k",
  "top_p",
  "min_p",
  "num_predict",
]);

/**
 * The base URL of Ollama's native API for a host: scheme added when missing, trailing `/` dropped, `/api`
 * appended unless present.
 * @example
 * ollamaApiUrl("gpu-box:11434"); // "http://gpu-box:11434/api"
 * ollamaApiUrl("http://127.0.0.1:11434/api/"); // "http://127.0.0.1:11434/api"
 */
export function ollamaApiUrl(host: string): string {
  const withScheme = /^https?:\/\//.test(host) ? host : `http://${host}`;
  const trimmed = withScheme.replace(/\/+$/, "");
  return /\/api$/.test(trimmed) ? trimmed : `${trimmed}/api`;
}

/** The base URL of the Ollama server a model's settings name (see {@link OllamaOptions}), ending in `/api`. */
export function ollamaBaseUrl(options: Pick<OllamaOptions, "baseURL" | "env">): string {
  const env = options.env ?? process.env;
  return ollamaApiUrl(options.baseURL || env.OLLAMA_HOST || OLLAMA_HOST);
}

/** Ollama's `options` for a model's settings: temperature, token cap and the request arguments it knows. */
function ollamaRequestOptions(options: ModelCallSettings): JSONObject {
  const sent: JSONObject = {};
  for (const [key, value] of Object.entries(options.extraKwargs ?? {})) {
    if (!OLLAMA_OPTIONS.has(key) || value === undefined) continue;
    sent[key] = key === "stop" && typeof value === "string" ? [value] : (value as JSONObject[string]);
  }
  if (options.temperature !== undefined) sent.temperature = options.temperature;
  if (options.maxTokens !== undefined) sent.num_predict = options.maxTokens;
  return sent;
}

/**
 * The AI SDK model behind the `ollama` adapter.
 * @throws {AdapterUnavailableError} when the model name is missing.
 */
export function ollamaModel(options: OllamaOptions): LanguageModelTarget {
  requireModelName("ollama", options.modelName);
  const baseURL = ollamaBaseUrl(options);
  const headers = options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : undefined;
  const model = lazyLanguageModel({
    provider: "ollama.responses",
    modelId: options.modelName,
    load: async () =>
      (await import("ollama-ai-provider-v2"))
        .createOllama({ baseURL, ...(headers === undefined ? {} : { headers }) })
        .chat(options.modelName),
  });
  const settings = callSettings(options);
  // Sampling settings travel in Ollama's `options` object, the only place the native API reads them.
  const { extraKwargs: _sentAsOptions, ...withoutKwargs } = settings;
  return {
    ...withoutKwargs,
    adapter: "ollama",
    model,
    secrets: options.apiKey ? [options.apiKey] : [],
    request: { providerOptions: { ollama: { options: ollamaRequestOptions(settings) } } },
  };
}

/** An `LlmPort` over Ollama's native chat API. */
export function ollamaLlm(options: OllamaOptions): LlmPort {
  return languageModelLlm(ollamaModel(options));
}

/** A `ParserPort` over Ollama's native chat API (`format` with the JSON schema, then the JSON fallbacks). */
export function ollamaParser(options: OllamaOptions): ParserPort {
  return languageModelParser(ollamaModel(options));
}
