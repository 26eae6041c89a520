/**
 * The `openai` adapter (and `langchain` with `model_provider: "openai"`): the OpenAI Chat Completions API
 * through `@ai-sdk/openai`.
 */
import { createOpenAI } from "@ai-sdk/openai";
import { type LanguageModelTarget, languageModelLlm, languageModelParser } from "../ai-sdk-ports.js";
import type { LlmPort, ParserPort } from "../ports.js";
import { type HostedApi, type HostedModelOptions, hostedModel } from "./hosted-api.js";

/** The OpenAI API's base URL. */
export const OPENAI_BASE_URL = "https://api.openai.com/v1";

/** The OpenAI API, for its chat and embedding models. */
export const OPENAI_API: HostedApi = {
  adapter: "openai",
  keyVariables: ["OPENAI_API_KEY"],
  keySetting: "endpoint_api_key",
  baseURL: OPENAI_BASE_URL,
  baseUrlVariable: "OPENAI_BASE_URL",
};

/**
 * Settings of an OpenAI model. The key is else `OPENAI_API_KEY` from `env`; the URL prefix (including `/v1`)
 * is else `OPENAI_BASE_URL` from `env`, else the OpenAI API.
 */
export interface OpenAiOptions extends HostedModelOptions {}

/**
 * The AI SDK model behind the `openai` adapter (Chat Completions, JSON-schema structured output).
 * @throws {AdapterUnavailableError} when no key is given or set in `OPENAI_API_KEY`, or the model name is missing.
 */
export function openAiModel(options: OpenAiOptions): LanguageModelTarget {
  return hostedModel(OPENAI_API, options, (connection) => createOpenAI(connection).chat(options.modelName));
}

/** An `LlmPort` over the OpenAI API. */
export function openAiLlm(options: OpenAiOptions): LlmPort {
  return languageModelLlm(openAiModel(options));
}

/** A `ParserPort` over the OpenAI API (native structured output, then the JSON fallbacks). */
export function openAiParser(options: OpenAiOptions): ParserPort {
  return languageModelParser(openAiModel(options));
}
