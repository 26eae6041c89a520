/**
 * The `openai` adapter (and `langchain` with `model_provider: "openai"`): the OpenAI Chat Completions API
 * through `@ai-sdk/openai`.
 */
import { createOpenAI } from "@ai-sdk/openai";
import {
  callSettings,
  type LanguageModelTarget,
  languageModelLlm,
  languageModelParser,
  type ModelCallSettings,
} from "../ai-sdk-ports.js";
import type { LlmPort, ParserPort } from "../ports.js";
import { type ProviderEnv, requireModelName, resolveApiKey } from "./api-key.js";

/** The OpenAI API's base URL. */
export const OPENAI_BASE_URL = "https://api.openai.com/v1";

/** Settings of an OpenAI model. */
export interface OpenAiOptions extends ModelCallSettings {
  /** The key; when absent, `OPENAI_API_KEY` from `env`. */
  apiKey?: string | null;
  /** The URL prefix including `/v1`; when absent, `OPENAI_BASE_URL` from `env`, else the OpenAI API. */
  baseURL?: string | null;
  /** Where keys and URLs are read from; default `process.env`. */
  env?: ProviderEnv;
}

/**
 * The AI SDK model behind the `openai` adapter (Chat Completions, JSON-schema structured output).
 * @throws {AdapterUnavailableError} when no key is given or set in `OPENAI_API_KEY`, or the model name is missing.
 */
export function openAiModel(options: OpenAiOptions): LanguageModelTarget {
  const env = options.env ?? process.env;
  requireModelName("openai", options.modelName);
  const apiKey = resolveApiKey({
    adapter: "openai",
    explicit: options.apiKey,
    variables: ["OPENAI_API_KEY"],
    setting: "endpoint_api_key",
    env,
  });
  const baseURL = (options.baseURL || env.OPENAI_BASE_URL || OPENAI_BASE_URL).replace(/\/+$/, "");
  const provider = createOpenAI({ apiKey, baseURL });
  return {
    ...callSettings(options),
    adapter: "openai",
    model: provider.chat(options.modelName),
    secrets: [apiKey],
  };
}

/** An `LlmPort` over the OpenAI API. */
export function openAiLlm(options: OpenAiOptions): LlmPort {
  return languageModelLlm(openAiModel(options));
}

/** A `ParserPort` over the OpenAI API (native structured output, then the JSON fallbacks). */
export function openAiParser(options: OpenAiOptions): ParserPort {
  return languageModelParser(openAiModel(options));
}
