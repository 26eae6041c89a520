/** The `openrouter` adapter: OpenRouter's OpenAI-compatible API through `@ai-sdk/openai-compatible`. */
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { type LanguageModelTarget, languageModelLlm, languageModelParser } from "../ai-sdk-ports.js";
import type { LlmPort, ParserPort } from "../ports.js";
import { type HostedApi, type HostedModelOptions, hostedModel } from "./hosted-api.js";

/** OpenRouter's base URL. */
export const OPENROUTER_BASE_URL = "https://openrouter.ai/api/v1";

/**
 * Settings of an OpenRouter model (`modelName` such as `openai/gpt-4.1-mini`). The key, sent as a bearer
 * token, is else `OPENROUTER_API_KEY` from `env`; another URL prefix (including `/v1`) is for a proxy,
 * default OpenRouter's.
 */
export interface OpenRouterOptions extends HostedModelOptions {}

const OPENROUTER: HostedApi = {
  adapter: "openrouter",
  keyVariables: ["OPENROUTER_API_KEY"],
  keySetting: "endpoint_api_key",
  baseURL: OPENROUTER_BASE_URL,
  bodyProvider: "openrouter",
};

/**
 * The AI SDK model behind the `openrouter` adapter.
 * @throws {AdapterUnavailableError} when no key is given or set in `OPENROUTER_API_KEY`, or the model name is missing.
 */
export function openRouterModel(options: OpenRouterOptions): LanguageModelTarget {
  return hostedModel(OPENROUTER, options, ({ apiKey, baseURL }) =>
    createOpenAICompatible({
      name: "openrouter",
      baseURL,
      apiKey,
      supportsStructuredOutputs: true,
      includeUsage: true,
    }).chatModel(options.modelName),
  );
}

/** An `LlmPort` over OpenRouter. */
export function openRouterLlm(options: OpenRouterOptions): LlmPort {
  return languageModelLlm(openRouterModel(options));
}

/** A `ParserPort` over OpenRouter (native structured output, then the JSON fallbacks). */
export function openRouterParser(options: OpenRouterOptions): ParserPort {
  return languageModelParser(openRouterModel(options));
}
