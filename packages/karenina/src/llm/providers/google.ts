/**
 * The `google` adapter (and `langchain` with `model_provider: "google_genai"`): the Gemini API (Google
 * Generative Language API) through `@ai-sdk/google`.
 */
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import {
  callSettings,
  type LanguageModelTarget,
  languageModelLlm,
  languageModelParser,
  type ModelCallSettings,
} from "../ai-sdk-ports.js";
import type { LlmPort, ParserPort } from "../ports.js";
import { type ProviderEnv, requireModelName, resolveApiKey } from "./api-key.js";

/** The Gemini API's base URL. */
export const GOOGLE_BASE_URL = "https://generativelanguage.googleapis.com/v1beta";

/** Environment variables holding a Gemini API key, in the order they are tried. */
export const GOOGLE_API_KEY_VARIABLES: readonly string[] = Object.freeze([
  "GOOGLE_GENERATIVE_AI_API_KEY",
  "GEMINI_API_KEY",
  "GOOGLE_API_KEY",
]);

/** Settings of a Gemini model. */
export interface GoogleOptions extends ModelCallSettings {
  /** The key; when absent, the first of {@link GOOGLE_API_KEY_VARIABLES} set in `env`. Sent as `x-goog-api-key`. */
  apiKey?: string | null;
  /** The URL prefix including the API version (e.g. `http://host/v1beta`); default the Gemini API. */
  baseURL?: string | null;
  /** Where keys are read from; default `process.env`. */
  env?: ProviderEnv;
}

/**
 * The AI SDK model behind the `google` adapter (structured output through `responseSchema`).
 * @throws {AdapterUnavailableError} when no key is given or set, or the model name is missing.
 */
export function googleModel(options: GoogleOptions): LanguageModelTarget {
  requireModelName("google", options.modelName);
  const apiKey = resolveApiKey({
    adapter: "google",
    explicit: options.apiKey,
    variables: GOOGLE_API_KEY_VARIABLES,
    setting: "endpoint_api_key",
    env: options.env ?? process.env,
  });
  const baseURL = (options.baseURL || GOOGLE_BASE_URL).replace(/\/+$/, "");
  const provider = createGoogleGenerativeAI({ apiKey, baseURL });
  return {
    ...callSettings(options),
    adapter: "google",
    model: provider.chat(options.modelName),
    secrets: [apiKey],
  };
}

/** An `LlmPort` over the Gemini API. */
export function googleLlm(options: GoogleOptions): LlmPort {
  return languageModelLlm(googleModel(options));
}

/** A `ParserPort` over the Gemini API (native structured output, then the JSON fallbacks). */
export function googleParser(options: GoogleOptions): ParserPort {
  return languageModelParser(googleModel(options));
}
