/**
 * The `vertex_anthropic` adapter (and `langchain` with `model_provider: "google_anthropic_vertex"`, LangChain's
 * `ChatAnthropicVertex`): Claude models on Google Cloud's Vertex AI, through the Anthropic provider of
 * `@ai-sdk/google-vertex` (`@ai-sdk/google-vertex/anthropic`), imported at the first call. The wire format is
 * Anthropic's Messages API at Vertex's URLs (`POST .../v1/projects/{project}/locations/{location}/publishers/
 * anthropic/models/{model}:rawPredict`, `:streamRawPredict` when streamed), the model in the path and
 * `anthropic_version: "vertex-2023-10-16"` in the body. Project, location, credentials and endpoint are read
 * exactly as for Gemini on Vertex (`vertex.ts`), except that Vertex has no API-key (express) mode for Claude.
 */
import type { LanguageModelV3 } from "@ai-sdk/provider";
import {
  type LanguageModelTarget,
  languageModelLlm,
  languageModelParser,
  languageModelTarget,
} from "../ai-sdk-ports.js";
import type { LlmPort, ParserPort } from "../ports.js";
import { requireModelName } from "./api-key.js";
import { lazyLanguageModel } from "./lazy-model.js";
import {
  googleAuthOptions,
  type VertexConnection,
  type VertexOptions,
  type VertexPublisher,
  vertexConnection,
  vertexSecrets,
} from "./vertex.js";

/** Claude on Vertex: the `v1` API (as `@ai-sdk/google-vertex/anthropic` and Anthropic's SDKs call it), no express mode. */
export const VERTEX_ANTHROPIC: VertexPublisher = Object.freeze({
  adapter: "vertex_anthropic",
  name: "anthropic",
  apiVersion: "v1",
  expressMode: false,
});

/**
 * Settings of a Claude model on Vertex: those of {@link VertexOptions} (project, location, credentials file,
 * base URL, read from the same variables), without an API key: one given is refused.
 */
export type VertexAnthropicOptions = VertexOptions;

/**
 * The connection of a Claude model on Vertex (see {@link VertexOptions}).
 * @throws {AdapterUnavailableError} when the credentials or the project are missing, the credentials file cannot
 * be read, or an API key is given.
 */
export function vertexAnthropicConnection(options: VertexAnthropicOptions): VertexConnection {
  return vertexConnection(options, VERTEX_ANTHROPIC);
}

/**
 * The `@ai-sdk/google-vertex/anthropic` provider of a connection, imported now, with every setting given so that
 * the package reads no environment.
 */
async function vertexAnthropicProvider(connection: VertexConnection) {
  const { createVertexAnthropic } = await import("@ai-sdk/google-vertex/anthropic");
  return createVertexAnthropic({
    project: connection.project ?? "",
    location: connection.location,
    // The package appends `/{model}:rawPredict` to its base URL, which ends in `/models`.
    baseURL: `${connection.baseURL}/models`,
    googleAuthOptions: googleAuthOptions(connection),
  });
}

function vertexAnthropicLanguageModel(connection: VertexConnection, modelName: string): LanguageModelV3 {
  return lazyLanguageModel({
    provider: "vertex.anthropic.messages",
    modelId: modelName,
    load: async () => (await vertexAnthropicProvider(connection)).languageModel(modelName),
  });
}

/**
 * The AI SDK model behind the `vertex_anthropic` adapter. Structured output is the package's forced `json` tool
 * (Vertex takes no JSON-schema output format for Claude), with the JSON-extraction fallbacks behind it;
 * `@ai-sdk/google-vertex` (and `google-auth-library`) are imported at the first call.
 * @throws {AdapterUnavailableError} when the model name, the credentials or the project is missing, or an API
 * key is given.
 */
export function vertexAnthropicModel(options: VertexAnthropicOptions): LanguageModelTarget {
  requireModelName(VERTEX_ANTHROPIC.adapter, options.modelName);
  const connection = vertexAnthropicConnection(options);
  const model = vertexAnthropicLanguageModel(connection, options.modelName);
  const target = languageModelTarget(VERTEX_ANTHROPIC.adapter, options, model, "");
  return { ...target, secrets: vertexSecrets(connection) };
}

/** An `LlmPort` over Claude on Vertex AI. */
export function vertexAnthropicLlm(options: VertexAnthropicOptions): LlmPort {
  return languageModelLlm(vertexAnthropicModel(options));
}

/** A `ParserPort` over Claude on Vertex AI (the forced `json` tool, then the JSON fallbacks). */
export function vertexAnthropicParser(options: VertexAnthropicOptions): ParserPort {
  return languageModelParser(vertexAnthropicModel(options));
}
