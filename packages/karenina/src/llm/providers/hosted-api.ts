/**
 * What the adapters of hosted APIs (`openai`, `anthropic`, `google`, `openrouter`, OpenAI embeddings) share:
 * the model name checked, the key given or read from the environment, and the base URL given, read from the
 * environment or the API's own.
 */
import type { LanguageModelV3 } from "@ai-sdk/provider";
import { type LanguageModelTarget, languageModelTarget, type ModelCallSettings } from "../ai-sdk-ports.js";
import { type ProviderEnv, requireModelName, resolveApiKey } from "./api-key.js";

/** How a hosted API's client is reached: the settings every hosted adapter takes. */
export interface HostedApiOptions {
  /** The key; when absent, the first of the API's key variables set in `env`. */
  apiKey?: string | null;
  /**
   * Another URL prefix (a gateway or proxy); when absent, the API's base-URL variable in `env` where it reads
   * one, else the API's own.
   */
  baseURL?: string | null;
  /** Where keys and URLs are read from; default `process.env`. */
  env?: ProviderEnv;
}

/** The settings of a hosted API's model: the call settings and how the API is reached. */
export interface HostedModelOptions extends ModelCallSettings, HostedApiOptions {}

/** A hosted API, as its adapter reaches it. */
export interface HostedApi {
  /** The adapter's name, for messages. */
  adapter: string;
  /** Environment variables holding a key, in the order they are tried. */
  keyVariables: readonly string[];
  /** The model-config field that may hold the key, named when no key is found. */
  keySetting: string;
  /** The API's own base URL. */
  baseURL: string;
  /** An environment variable that gives another base URL, when the API reads one. */
  baseUrlVariable?: string;
  /** How a base URL given in the options or the environment becomes the client's; default: trailing `/` dropped. */
  finalizeBaseUrl?: (given: string) => string;
  /**
   * For an OpenAI-compatible client: the provider-options name it merges into the request body, so extra
   * arguments reach the server (see `requestSettings`).
   */
  bodyProvider?: string;
}

/** The key and base URL of a hosted API's client. */
export interface HostedConnection {
  apiKey: string;
  baseURL: string;
}

const dropTrailingSlashes = (url: string) => url.replace(/\/+$/, "");

/**
 * The key and base URL for the model `options.modelName` of `api`; `what` names the model's kind when its
 * name is missing (default the adapter's name).
 * @throws {AdapterUnavailableError} when the model name is missing or no key is given or set.
 */
export function hostedConnection(
  api: HostedApi,
  options: HostedApiOptions & { modelName: string },
  what: string = api.adapter,
): HostedConnection {
  const env = options.env ?? process.env;
  requireModelName(what, options.modelName);
  const apiKey = resolveApiKey({
    adapter: api.adapter,
    explicit: options.apiKey,
    variables: api.keyVariables,
    setting: api.keySetting,
    env,
  });
  const given = options.baseURL || (api.baseUrlVariable === undefined ? undefined : env[api.baseUrlVariable]);
  const baseURL = given ? (api.finalizeBaseUrl ?? dropTrailingSlashes)(given) : api.baseURL;
  return { apiKey, baseURL };
}

/**
 * The AI SDK target of a hosted API's model: `model` made for the connection, with the options' call settings.
 * @throws {AdapterUnavailableError} when the model name is missing or no key is given or set.
 */
export function hostedModel(
  api: HostedApi,
  options: HostedModelOptions,
  model: (connection: HostedConnection) => LanguageModelV3,
): LanguageModelTarget {
  const connection = hostedConnection(api, options);
  return languageModelTarget(api.adapter, options, model(connection), connection.apiKey, api.bodyProvider);
}
