export {
  type OpenAiTestServer,
  type RecordedRequest,
  type ScriptedReply,
  type ScriptedStream,
  type ScriptedToolCall,
  type ScriptedUsage,
  type ScriptMatch,
  type ScriptRule,
  startOpenAiServer,
} from "./openai-server.js";
