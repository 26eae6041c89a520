/**
 * The `google` adapter (and `langchain` with `model_provider: "google_genai"`): the Gemini API (Google
 * Generative Language API) through `@ai-sdk/google`.
 */
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { type LanguageModelTarget, languageModelLlm, languageModelParser } from "../ai-sdk-ports.js";
import type { LlmPort, ParserPort } from "../ports.js";
import { type HostedApi, type HostedModelOptions, hostedModel } from "./hosted-api.js";

/** The Gemini API's base URL. */
export const GOOGLE_BASE_URL = "https://generativelanguage.googleapis.com/v1beta";

/** Environment variables holding a Gemini API key, in the order they are tried. */
export const GOOGLE_API_KEY_VARIABLES: readonly string[] = Object.freeze([
  "GOOGLE_GENERATIVE_AI_API_KEY",
  "GEMINI_API_KEY",
  "GOOGLE_API_KEY",
]);

/**
 * Settings of a Gemini model. The key, sent as `x-goog-api-key`, is else the first of
 * {@link GOOGLE_API_KEY_VARIABLES} set in `env`. The base URL includes the API version (e.g.
 * `http://host/v1beta`); default the Gemini API.
 */
export interface GoogleOptions extends HostedModelOptions {}

const GOOGLE: HostedApi = {
  adapter: "google",
  keyVariables: GOOGLE_API_KEY_VARIABLES,
  keySetting: "endpoint_api_key",
  baseURL: GOOGLE_BASE_URL,
};

/**
 * The AI SDK model behind the `google` adapter (structured output through `responseSchema`).
 * @throws {AdapterUnavailableError} when no key is given or set, or the model name is missing.
 */
export function googleModel(options: GoogleOptions): LanguageModelTarget {
  return hostedModel(GOOGLE, options, (connection) =>
    createGoogleGenerativeAI(connection).chat(options.modelName),
  );
}

/** An `LlmPort` over the Gemini API. */
export function googleLlm(options: GoogleOptions): LlmPort {
  return languageModelLlm(googleModel(options));
}

/** A `ParserPort` over the Gemini API (native structured output, then the JSON fallbacks). */
export function googleParser(options: GoogleOptions): ParserPort {
  return languageModelParser(googleModel(options));
}
