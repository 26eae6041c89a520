export {
  type OpenAiTestServer,
  type RecordedRequest,
  type ScriptedReply,
  type ScriptedUsage,
  type ScriptMatch,
  type ScriptRule,
  startOpenAiServer,
} from "./openai-server.js";
