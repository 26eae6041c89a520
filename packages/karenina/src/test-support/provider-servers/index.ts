export { type AnthropicTestServer, startAnthropicServer } from "./anthropic-server.js";
export { type BedrockTestServer, startBedrockServer } from "./bedrock-server.js";
export {
  type ChatDialect,
  type ChatReply,
  type ChatRule,
  type ChatTestServer,
  type ScriptedCall,
  startChatServer,
} from "./chat-completions-server.js";
export { type CohereTestServer, startCohereServer } from "./cohere-server.js";
export {
  defaultEmbedding,
  type EmbeddingReply,
  type EmbeddingRule,
  type ProviderRule,
} from "./embeddings-route.js";
export { type GoogleTestServer, startGoogleServer } from "./google-server.js";
export { type OllamaTestServer, startOllamaServer } from "./ollama-server.js";
export type {
  RecordedRequest,
  ScriptedReply,
  ScriptedTokens,
  ScriptMatch,
  ScriptRule,
  StreamPacing,
} from "./wire-format.js";
