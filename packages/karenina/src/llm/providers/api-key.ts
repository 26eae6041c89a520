import { AdapterUnavailableError } from "../errors.js";

/** Environment variables as a record; adapters read API keys from it (default `process.env`). */
export type ProviderEnv = Readonly<Record<string, string | undefined>>;

/** Where an adapter looks for its API key. */
export interface ApiKeySource {
  /** The adapter's name, for the error message. */
  adapter: string;
  /** A key given explicitly (the model config's secret field); wins over the environment. */
  explicit?: string | null;
  /** Environment variables tried in order; the first is the one the error asks to set. */
  variables: readonly string[];
  /** The model-config field that may hold the key, named in the error (e.g. `anthropic_api_key`). */
  setting?: string;
  env?: ProviderEnv;
}

/**
 * The API key of an adapter: the explicit key when non-empty, else the first non-empty environment variable.
 * The key's value never appears in any message.
 * @throws {AdapterUnavailableError} naming the variable to set (and the config field) when no key is found.
 * @example
 * resolveApiKey({ adapter: "google", variables: ["GOOGLE_GENERATIVE_AI_API_KEY", "GEMINI_API_KEY"], env: { GEMINI_API_KEY: "k" } }); // "k"
 */
export function resolveApiKey(source: ApiKeySource): string {
  if (source.explicit) return source.explicit;
  const env = source.env ?? process.env;
  for (const variable of source.variables) {
    const value = env[variable];
    if (value !== undefined && value.trim() !== "") return value;
  }
  const [first, ...others] = source.variables;
  const alternatives = others.length > 0 ? ` (or ${others.join(" or ")})` : "";
  const setting = source.setting === undefined ? "" : `, or give the model's ${source.setting}`;
  throw new AdapterUnavailableError(
    `${source.adapter} needs an API key: set the environment variable ${first}${alternatives}${setting}`,
    "missing API key",
  );
}

/** Throws when a model name is missing, since every provider call needs one. */
export function requireModelName(adapter: string, modelName: string): void {
  if (!modelName) {
    throw new AdapterUnavailableError(`${adapter} needs model_name`, "missing model_name");
  }
}
