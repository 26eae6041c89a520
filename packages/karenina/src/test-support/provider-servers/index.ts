export { type AnthropicTestServer, startAnthropicServer } from "./anthropic-server.js";
export { type GoogleTestServer, startGoogleServer } from "./google-server.js";
export type {
  RecordedRequest,
  ScriptedReply,
  ScriptedServer,
  ScriptedTokens,
  ScriptMatch,
  ScriptRule,
} from "./wire-format.js";
