import {
  AdapterUnavailableError,
  type BaseUrlMode,
  type LlmPort,
  type OpenAiEndpointOptions,
  openAiEndpointLlm,
  openAiEndpointParser,
  type ParserPort,
} from "../../llm/index.js";
import { adapterTarget } from "./interfaces.js";
import type { ModelConfig } from "./model-config.js";

const BASE_URL_MODES = new Set<string>(["auto_v1", "raw"]);

/**
 * The `openai_endpoint` adapter settings of a model: base URL and key from the model (the key is never read
 * from the environment), `extra_kwargs.endpoint_base_url_mode`, temperature, token cap and timeout.
 * @throws {AdapterUnavailableError} when the model is not an `openai_endpoint` one or a setting is wrong.
 */
export function openAiEndpointOptions(model: ModelConfig): OpenAiEndpointOptions {
  if (model.interface !== "openai_endpoint") {
    throw new AdapterUnavailableError(`model ${model.id} uses ${model.interface}, not openai_endpoint`);
  }
  const mode = model.extra_kwargs?.endpoint_base_url_mode ?? "auto_v1";
  if (typeof mode !== "string" || !BASE_URL_MODES.has(mode)) {
    throw new AdapterUnavailableError(
      `model ${model.id}: extra_kwargs.endpoint_base_url_mode must be auto_v1 or raw, found ${JSON.stringify(mode)}`,
      "invalid endpoint_base_url_mode",
    );
  }
  return {
    baseURL: model.endpoint_base_url ?? "",
    apiKey: model.endpoint_api_key?.reveal() ?? "",
    modelName: model.model_name ?? "",
    baseUrlMode: mode as BaseUrlMode,
    temperature: model.temperature,
    maxTokens: model.max_tokens,
    ...(model.request_timeout === null ? {} : { requestTimeoutMs: model.request_timeout * 1000 }),
  };
}

function unavailable(model: ModelConfig): AdapterUnavailableError {
  const target = adapterTarget(model.interface, model.model_provider);
  const served = target === null ? "no adapter here" : `the ${target} adapter, not built yet`;
  return new AdapterUnavailableError(
    `model ${model.id}: interface ${model.interface}${model.model_provider ? ` (provider ${model.model_provider})` : ""} needs ${served}; use openai_endpoint`,
    "not implemented",
    "openai_endpoint",
  );
}

/** The `LlmPort` serving a model. Only `openai_endpoint` is served so far. */
export function llmPortFor(model: ModelConfig): LlmPort {
  if (model.interface === "openai_endpoint") return openAiEndpointLlm(openAiEndpointOptions(model));
  throw unavailable(model);
}

/** The `ParserPort` serving a judge model. Only `openai_endpoint` is served so far. */
export function parserPortFor(model: ModelConfig): ParserPort {
  if (model.interface === "openai_endpoint") return openAiEndpointParser(openAiEndpointOptions(model));
  throw unavailable(model);
}
