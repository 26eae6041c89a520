/**
 * The `openai_endpoint` adapter (spec 05 §5.1): any OpenAI-compatible chat-completions server (vLLM, sglang,
 * llama.cpp, Ollama, a gateway), reached through the AI SDK's `@ai-sdk/openai-compatible` provider.
 */
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import {
  type LanguageModelTarget,
  languageModelLlm,
  languageModelParser,
  languageModelTarget,
  type ModelCallSettings,
} from "../ai-sdk-ports.js";
import { AdapterUnavailableError } from "../errors.js";
import type { LlmPort, ParserPort } from "../ports.js";
import { requireModelName } from "./api-key.js";

/** How `baseURL` becomes the client's URL: `auto_v1` appends `/v1` unless present; `raw` keeps it as given. */
export type BaseUrlMode = "auto_v1" | "raw";

/** Settings of an OpenAI-compatible endpoint model. */
export interface OpenAiEndpointOptions extends ModelCallSettings {
  baseURL: string;
  /** Sent as a bearer token. Never read from the environment for this adapter. */
  apiKey: string;
  baseUrlMode?: BaseUrlMode;
}

/**
 * The base URL the client uses, per `mode` (spec 05 §5.1 "Base URL finalisation").
 * @example
 * finalizeBaseUrl("http://localhost:8000/"); // "http://localhost:8000/v1"
 */
export function finalizeBaseUrl(baseURL: string, mode: BaseUrlMode = "auto_v1"): string {
  const trimmed = baseURL.replace(/\/+$/, "");
  if (mode === "raw") return trimmed;
  return /\/v1$/.test(trimmed) ? trimmed : `${trimmed}/v1`;
}

/**
 * The AI SDK model behind an `openai_endpoint` adapter.
 * @throws {AdapterUnavailableError} when the base URL, key or model name is missing.
 */
export function openAiEndpointModel(options: OpenAiEndpointOptions): LanguageModelTarget {
  if (!options.baseURL) {
    throw new AdapterUnavailableError("openai_endpoint needs endpoint_base_url", "missing endpoint_base_url");
  }
  if (!options.apiKey) {
    throw new AdapterUnavailableError("openai_endpoint needs endpoint_api_key", "missing endpoint_api_key");
  }
  requireModelName("openai_endpoint", options.modelName);
  const provider = createOpenAICompatible({
    name: "openai_endpoint",
    baseURL: finalizeBaseUrl(options.baseURL, options.baseUrlMode),
    apiKey: options.apiKey,
    supportsStructuredOutputs: true,
    // Streamed answers report their usage in a last chunk only when asked (`stream_options.include_usage`).
    includeUsage: true,
  });
  return languageModelTarget(
    "openai_endpoint",
    options,
    provider.chatModel(options.modelName),
    options.apiKey,
    "openai_endpoint",
  );
}

/** An `LlmPort` over an OpenAI-compatible endpoint. Throws `AdapterUnavailableError` when a setting is missing. */
export function openAiEndpointLlm(options: OpenAiEndpointOptions): LlmPort {
  return languageModelLlm(openAiEndpointModel(options));
}

/**
 * A `ParserPort` over an OpenAI-compatible endpoint: native structured output (JSON-schema `response_format`),
 * asked again without it when the server refuses it (HTTP 400/422); then JSON extraction, repair and one
 * feedback retry (see {@link languageModelParser}).
 */
export function openAiEndpointParser(options: OpenAiEndpointOptions): ParserPort {
  return languageModelParser(openAiEndpointModel(options));
}
