/**
 * The `anthropic` adapter (and `claude_tool`, and `langchain` with `model_provider: "anthropic"`): the
 * Anthropic Messages API through `@ai-sdk/anthropic`.
 */
import { createAnthropic } from "@ai-sdk/anthropic";
import { type LanguageModelTarget, languageModelLlm, languageModelParser } from "../ai-sdk-ports.js";
import type { LlmPort, ParserPort } from "../ports.js";
import { type HostedApi, type HostedModelOptions, hostedModel } from "./hosted-api.js";
import { finalizeBaseUrl } from "./openai-endpoint.js";

/** The Anthropic API's base URL. */
export const ANTHROPIC_BASE_URL = "https://api.anthropic.com/v1";

/**
 * Settings of an Anthropic model. The key (`anthropic_api_key`), sent as `x-api-key`, is else
 * `ANTHROPIC_API_KEY` from `env`. The base URL is an Anthropic-compatible gateway (`anthropic_base_url`),
 * taken as the Anthropic SDKs take it: `/v1` is appended unless present; when absent, `ANTHROPIC_BASE_URL`
 * from `env`, else the Anthropic API.
 */
export interface AnthropicOptions extends HostedModelOptions {}

const ANTHROPIC: HostedApi = {
  adapter: "anthropic",
  keyVariables: ["ANTHROPIC_API_KEY"],
  keySetting: "anthropic_api_key",
  baseURL: ANTHROPIC_BASE_URL,
  baseUrlVariable: "ANTHROPIC_BASE_URL",
  finalizeBaseUrl: (given) => finalizeBaseUrl(given, "auto_v1"),
};

/**
 * The AI SDK model behind the `anthropic` adapter. Structured output uses the API's JSON-schema output format
 * for models that support it, else a forced `json` tool (the SDK decides by model name).
 * @throws {AdapterUnavailableError} when no key is given or set in `ANTHROPIC_API_KEY`, or the model name is missing.
 */
export function anthropicModel(options: AnthropicOptions): LanguageModelTarget {
  return hostedModel(ANTHROPIC, options, (connection) =>
    createAnthropic(connection).messages(options.modelName),
  );
}

/** An `LlmPort` over the Anthropic Messages API. */
export function anthropicLlm(options: AnthropicOptions): LlmPort {
  return languageModelLlm(anthropicModel(options));
}

/** A `ParserPort` over the Anthropic Messages API (native structured output, then the JSON fallbacks). */
export function anthropicParser(options: AnthropicOptions): ParserPort {
  return languageModelParser(anthropicModel(options));
}
