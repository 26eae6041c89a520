/**
 * The `azure` adapter (and `langchain` with `model_provider: "azure_openai"`): Azure OpenAI's chat
 * completions through `@ai-sdk/azure`, imported at the first call, with the conventions of LangChain's
 * `AzureChatOpenAI`: a resource endpoint, a deployment, an API version, the key sent as `api-key`.
 */
import {
  type LanguageModelTarget,
  languageModelLlm,
  languageModelParser,
  languageModelTarget,
} from "../ai-sdk-ports.js";
import { AdapterUnavailableError } from "../errors.js";
import type { LlmPort, ParserPort } from "../ports.js";
import { type HostedApi, type HostedModelOptions, hostedConnection } from "./hosted-api.js";
import { lazyLanguageModel } from "./lazy-model.js";

/**
 * Settings of an Azure OpenAI model. `modelName` is the deployment unless `deployment` is given.
 * - key: `apiKey`, else `AZURE_OPENAI_API_KEY` or `AZURE_API_KEY` from `env`;
 * - endpoint: `baseURL` (`https://<resource>.openai.azure.com`, with or without `/openai`), else
 *   `AZURE_OPENAI_ENDPOINT`, else `https://<resourceName>.openai.azure.com` with `resourceName` or
 *   `AZURE_RESOURCE_NAME`;
 * - API version: `apiVersion`, else `OPENAI_API_VERSION` or `AZURE_OPENAI_API_VERSION`, else `v1`. `v1` calls Azure's v1 API (`/openai/v1/chat/completions`, the deployment in the body); a dated
 *   version (`2024-10-21`) calls the deployment's URL (`/openai/deployments/<deployment>/chat/completions?api-version=...`).
 */
export interface AzureOptions extends HostedModelOptions {
  deployment?: string | null;
  apiVersion?: string | null;
  resourceName?: string | null;
}

const AZURE: HostedApi = {
  adapter: "azure",
  keyVariables: ["AZURE_OPENAI_API_KEY", "AZURE_API_KEY"],
  keySetting: "endpoint_api_key",
  // Unused: the endpoint is resolved below, as it needs the resource name.
  baseURL: "",
};

/** The resource endpoint, ending in `/openai`. */
function azureEndpoint(options: AzureOptions): string {
  const env = options.env ?? process.env;
  const resource = options.resourceName || env.AZURE_RESOURCE_NAME;
  const given =
    options.baseURL || env.AZURE_OPENAI_ENDPOINT || (resource ? `https://${resource}.openai.azure.com` : "");
  if (!given) {
    throw new AdapterUnavailableError(
      "azure needs its resource endpoint: give the model's endpoint_base_url (https://<resource>.openai.azure.com), or set AZURE_OPENAI_ENDPOINT or AZURE_RESOURCE_NAME",
      "missing Azure endpoint",
    );
  }
  const trimmed = given.replace(/\/+$/, "").replace(/\/openai(\/v1)?$/, "");
  return `${trimmed}/openai`;
}

/** Where an Azure model's calls go: the endpoint (ending in `/openai`), the API version, the deployment, the key. */
export interface AzureConnection {
  endpoint: string;
  apiVersion: string;
  deployment: string;
  apiKey: string;
}

/**
 * The connection of an Azure model (see {@link AzureOptions} for where each part comes from).
 * @throws {AdapterUnavailableError} when the key, the endpoint or the deployment is missing.
 */
export function azureConnection(options: AzureOptions): AzureConnection {
  const env = options.env ?? process.env;
  const deployment = options.deployment || options.modelName;
  const { apiKey } = hostedConnection(AZURE, { ...options, modelName: deployment }, "azure (deployment)");
  const apiVersion = options.apiVersion || env.OPENAI_API_VERSION || env.AZURE_OPENAI_API_VERSION || "v1";
  return { endpoint: azureEndpoint(options), apiVersion, deployment, apiKey };
}

/** The URL listing an Azure resource's models, for a check that the endpoint answers and takes the key. */
export function azureModelsUrl(connection: AzureConnection): string {
  return connection.apiVersion === "v1"
    ? `${connection.endpoint}/v1/models`
    : `${connection.endpoint}/models?api-version=${encodeURIComponent(connection.apiVersion)}`;
}

/**
 * The AI SDK model behind the `azure` adapter.
 * @throws {AdapterUnavailableError} when the key, the endpoint or the deployment is missing.
 */
export function azureModel(options: AzureOptions): LanguageModelTarget {
  const { deployment, apiKey } = azureConnection(options);
  const model = lazyLanguageModel({
    provider: "azure.chat",
    modelId: deployment,
    load: async () => (await azureProvider(options)).chat(deployment),
  });
  return languageModelTarget("azure", { ...options, modelName: deployment }, model, apiKey);
}

/** An `LlmPort` over Azure OpenAI. */
export function azureLlm(options: AzureOptions): LlmPort {
  return languageModelLlm(azureModel(options));
}

/** A `ParserPort` over Azure OpenAI (native JSON-schema structured output, then the JSON fallbacks). */
export function azureParser(options: AzureOptions): ParserPort {
  return languageModelParser(azureModel(options));
}

/**
 * The `@ai-sdk/azure` provider of a connection, imported now: the v1 API (`<endpoint>/v1`), or deployment URLs
 * with a dated `api-version`.
 */
export async function azureProvider(options: AzureOptions) {
  const { endpoint, apiVersion, apiKey } = azureConnection(options);
  const { createAzure } = await import("@ai-sdk/azure");
  return apiVersion === "v1"
    ? createAzure({ apiKey, baseURL: `${endpoint}/v1`, apiVersion })
    : createAzure({ apiKey, baseURL: endpoint, apiVersion, useDeploymentBasedUrls: true });
}
