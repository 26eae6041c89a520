/**
 * The `anthropic` adapter (and `claude_tool`, and `langchain` with `model_provider: "anthropic"`): the
 * Anthropic Messages API through `@ai-sdk/anthropic`.
 */
import { createAnthropic } from "@ai-sdk/anthropic";
import {
  callSettings,
  type LanguageModelTarget,
  languageModelLlm,
  languageModelParser,
  type ModelCallSettings,
} from "../ai-sdk-ports.js";
import type { LlmPort, ParserPort } from "../ports.js";
import { type ProviderEnv, requireModelName, resolveApiKey } from "./api-key.js";
import { finalizeBaseUrl } from "./openai-endpoint.js";

/** The Anthropic API's base URL. */
export const ANTHROPIC_BASE_URL = "https://api.anthropic.com/v1";

/** Settings of an Anthropic model. */
export interface AnthropicOptions extends ModelCallSettings {
  /** The key (`anthropic_api_key`); when absent, `ANTHROPIC_API_KEY` from `env`. Sent as `x-api-key`. */
  apiKey?: string | null;
  /**
   * An Anthropic-compatible gateway (`anthropic_base_url`), as the Anthropic SDKs take it: `/v1` is appended
   * unless present. When absent, `ANTHROPIC_BASE_URL` from `env`, else the Anthropic API.
   */
  baseURL?: string | null;
  /** Where keys and URLs are read from; default `process.env`. */
  env?: ProviderEnv;
}

/**
 * The AI SDK model behind the `anthropic` adapter. Structured output uses the API's JSON-schema output format
 * for models that support it, else a forced `json` tool (the SDK decides by model name).
 * @throws {AdapterUnavailableError} when no key is given or set in `ANTHROPIC_API_KEY`, or the model name is missing.
 */
export function anthropicModel(options: AnthropicOptions): LanguageModelTarget {
  const env = options.env ?? process.env;
  requireModelName("anthropic", options.modelName);
  const apiKey = resolveApiKey({
    adapter: "anthropic",
    explicit: options.apiKey,
    variables: ["ANTHROPIC_API_KEY"],
    setting: "anthropic_api_key",
    env,
  });
  const given = options.baseURL || env.ANTHROPIC_BASE_URL;
  const baseURL = given ? finalizeBaseUrl(given, "auto_v1") : ANTHROPIC_BASE_URL;
  const provider = createAnthropic({ apiKey, baseURL });
  return {
    ...callSettings(options),
    adapter: "anthropic",
    model: provider.messages(options.modelName),
    secrets: [apiKey],
  };
}

/** An `LlmPort` over the Anthropic Messages API. */
export function anthropicLlm(options: AnthropicOptions): LlmPort {
  return languageModelLlm(anthropicModel(options));
}

/** A `ParserPort` over the Anthropic Messages API (native structured output, then the JSON fallbacks). */
export function anthropicParser(options: AnthropicOptions): ParserPort {
  return languageModelParser(anthropicModel(options));
}
