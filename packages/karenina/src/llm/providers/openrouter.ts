/** The `openrouter` adapter: OpenRouter's OpenAI-compatible API through `@ai-sdk/openai-compatible`. */
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import {
  callSettings,
  type LanguageModelTarget,
  languageModelLlm,
  languageModelParser,
  type ModelCallSettings,
} from "../ai-sdk-ports.js";
import type { LlmPort, ParserPort } from "../ports.js";
import { type ProviderEnv, requireModelName, resolveApiKey } from "./api-key.js";

/** OpenRouter's base URL. */
export const OPENROUTER_BASE_URL = "https://openrouter.ai/api/v1";

/** Settings of an OpenRouter model (`modelName` such as `openai/gpt-4.1-mini`). */
export interface OpenRouterOptions extends ModelCallSettings {
  /** The key; when absent, `OPENROUTER_API_KEY` from `env`. Sent as a bearer token. */
  apiKey?: string | null;
  /** Another URL prefix (including `/v1`), for a proxy; default OpenRouter's. */
  baseURL?: string | null;
  /** Where keys are read from; default `process.env`. */
  env?: ProviderEnv;
}

/**
 * The AI SDK model behind the `openrouter` adapter.
 * @throws {AdapterUnavailableError} when no key is given or set in `OPENROUTER_API_KEY`, or the model name is missing.
 */
export function openRouterModel(options: OpenRouterOptions): LanguageModelTarget {
  requireModelName("openrouter", options.modelName);
  const apiKey = resolveApiKey({
    adapter: "openrouter",
    explicit: options.apiKey,
    variables: ["OPENROUTER_API_KEY"],
    setting: "endpoint_api_key",
    env: options.env ?? process.env,
  });
  const provider = createOpenAICompatible({
    name: "openrouter",
    baseURL: (options.baseURL || OPENROUTER_BASE_URL).replace(/\/+$/, ""),
    apiKey,
    supportsStructuredOutputs: true,
  });
  return {
    ...callSettings(options),
    adapter: "openrouter",
    model: provider.chatModel(options.modelName),
    secrets: [apiKey],
  };
}

/** An `LlmPort` over OpenRouter. */
export function openRouterLlm(options: OpenRouterOptions): LlmPort {
  return languageModelLlm(openRouterModel(options));
}

/** A `ParserPort` over OpenRouter (native structured output, then the JSON fallbacks). */
export function openRouterParser(options: OpenRouterOptions): ParserPort {
  return languageModelParser(openRouterModel(options));
}
