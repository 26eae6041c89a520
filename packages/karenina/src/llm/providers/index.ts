export {
  ANTHROPIC_BASE_URL,
  type AnthropicOptions,
  anthropicLlm,
  anthropicModel,
  anthropicParser,
} from "./anthropic.js";
export { type ApiKeySource, type ProviderEnv, resolveApiKey } from "./api-key.js";
export {
  type AzureConnection,
  type AzureOptions,
  azureConnection,
  azureLlm,
  azureModel,
  azureModelsUrl,
  azureParser,
} from "./azure.js";
export {
  type BedrockConnection,
  type BedrockCredentials,
  type BedrockOptions,
  bedrockConnection,
  bedrockLlm,
  bedrockModel,
  bedrockParser,
  bedrockRuntimeUrl,
} from "./bedrock.js";
export {
  type EmbeddingModelTarget,
  type EmbeddingPort,
  type EmbeddingResult,
  embeddingModelPort,
  type OpenAiEmbeddingOptions,
  type OpenAiEndpointEmbeddingOptions,
  openAiEmbeddings,
  openAiEndpointEmbeddings,
} from "./embeddings.js";
export {
  GOOGLE_API_KEY_VARIABLES,
  GOOGLE_BASE_URL,
  type GoogleOptions,
  googleLlm,
  googleModel,
  googleParser,
} from "./google.js";
export {
  cohereV2Url,
  HOSTED_CHAT_APIS,
  type HostedChatAdapter,
  type HostedChatApi,
  type HostedChatOptions,
  hostedChatLlm,
  hostedChatModel,
  hostedChatParser,
} from "./hosted-chat.js";
export { type LazyEmbeddingModelSource, lazyEmbeddingModel } from "./lazy-embedding-model.js";
export { type LazyModelSource, lazyLanguageModel } from "./lazy-model.js";
export {
  OLLAMA_HOST,
  type OllamaOptions,
  ollamaApiUrl,
  ollamaBaseUrl,
  ollamaLlm,
  ollamaModel,
  ollamaParser,
} from "./ollama.js";
export { OPENAI_BASE_URL, type OpenAiOptions, openAiLlm, openAiModel, openAiParser } from "./openai.js";
export {
  type BaseUrlMode,
  finalizeBaseUrl,
  type OpenAiEndpointOptions,
  openAiEndpointLlm,
  openAiEndpointModel,
  openAiEndpointParser,
} from "./openai-endpoint.js";
export {
  OPENROUTER_BASE_URL,
  type OpenRouterOptions,
  openRouterLlm,
  openRouterModel,
  openRouterParser,
} from "./openrouter.js";
export {
  azureEmbeddings,
  bedrockEmbeddings,
  EMBEDDING_ADAPTERS,
  type HostedEmbeddingAdapter,
  type HostedEmbeddingOptions,
  hostedEmbeddings,
  type OllamaEmbeddingOptions,
  ollamaEmbeddings,
  vertexEmbeddings,
} from "./provider-embeddings.js";
export {
  type GoogleCredentialsFile,
  VERTEX_DEFAULT_LOCATION,
  VERTEX_GEMINI,
  VERTEX_LOCATION_VARIABLES,
  VERTEX_PROJECT_VARIABLES,
  type VertexAuth,
  type VertexConnection,
  type VertexOptions,
  type VertexPublisher,
  vertexBaseUrl,
  vertexConnection,
  vertexLlm,
  vertexModel,
  vertexParser,
} from "./vertex.js";
export {
  VERTEX_ANTHROPIC,
  type VertexAnthropicOptions,
  vertexAnthropicConnection,
  vertexAnthropicLlm,
  vertexAnthropicModel,
  vertexAnthropicParser,
} from "./vertex-anthropic.js";
