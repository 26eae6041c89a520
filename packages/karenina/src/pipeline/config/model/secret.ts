import { z } from "zod";

/** What a secret shows instead of its value, as the original's JSON dump does. */
export const SECRET_MASK = "**********";

const INSPECT = Symbol.for("nodejs.util.inspect.custom");

/**
 * A credential that never leaves the process by accident: `JSON.stringify`, `String()` and `console.log`
 * show {@link SECRET_MASK}; only {@link Secret.reveal} gives the value, for the adapter that sends it.
 */
export class Secret {
  readonly #value: string;

  constructor(value: string) {
    this.#value = value;
  }

  reveal(): string {
    return this.#value;
  }

  toJSON(): string {
    return SECRET_MASK;
  }

  toString(): string {
    return SECRET_MASK;
  }

  [INSPECT](): string {
    return `Secret(${SECRET_MASK})`;
  }
}

/**
 * A secret field: a string or a `Secret` in, a `Secret` or null out. The mask itself (what a dumped preset
 * holds) and the empty string read as null, so a missing credential is reported as missing.
 */
export const SecretSchema = z
  .union([z.string(), z.instanceof(Secret).meta({ type: "string" })])
  .nullable()
  .default(null)
  .transform((value) => {
    if (value === null || value instanceof Secret) return value;
    return value === "" || value === SECRET_MASK ? null : new Secret(value);
  });

/**
 * A config's JSON form with the key of each `openai_endpoint` model given again where it is missing or masked
 * (presets and stored runs never hold keys). Local servers (Ollama, vLLM, llama.cpp) ignore the key, but the
 * client must send one: pass `"not-needed"` for them.
 */
export function withEndpointKey(config: Record<string, unknown>, key: string): Record<string, unknown> {
  const resupply = (models: unknown) =>
    Array.isArray(models)
      ? models.map((model: Record<string, unknown>) =>
          model.interface === "openai_endpoint" &&
          (model.endpoint_api_key == null || model.endpoint_api_key === SECRET_MASK)
            ? { ...model, endpoint_api_key: key }
            : model,
        )
      : models;
  return {
    ...config,
    answering_models: resupply(config.answering_models),
    parsing_models: resupply(config.parsing_models),
  };
}
