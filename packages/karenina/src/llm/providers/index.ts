export {
  ANTHROPIC_BASE_URL,
  type AnthropicOptions,
  anthropicLlm,
  anthropicModel,
  anthropicParser,
} from "./anthropic.js";
export { type ApiKeySource, type ProviderEnv, resolveApiKey } from "./api-key.js";
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
