import {
  type AnswerRequest,
  lastUserText,
  matchHolds,
  retryAfterHeader,
  type ScriptedHttpServer,
  startScriptedHttp,
} from "../scripted-http.js";
import type { ChatReply, ChatRule } from "./chat-completions-server.js";
import { type EmbeddingsApi, type ProviderRule, withEmbeddings } from "./embeddings-route.js";
import { type ScriptedTokens, type StreamFraming, streamedReply } from "./wire-format.js";

/** How a fake chat API of one route answers: its route, its error body, its success body. */
export interface OneRouteChat {
  /** The chat endpoint's path, answered for POST requests. */
  path: string;
  /** The API's error body for a message (Cohere `{message}`, Ollama `{error}`). */
  errorBody(message: string): unknown;
  /** The API's success body for a scripted (non-error) reply. */
  okBody(model: string, reply: Exclude<ChatReply, { status: number }>): unknown;
  /** The API's embeddings endpoint, served from `endpoint: "embeddings"` rules. */
  embeddings: EmbeddingsApi;
  /** How the API streams an answer to a request (`stream: true`), and the usage it reports unless scripted. */
  streaming: { framing(model: string): StreamFraming; defaultTokens: ScriptedTokens };
}

/**
 * Starts a fake chat API of one POST route beside its embeddings endpoint: a chat request no rule answers gets
 * a 500 naming it, a scripted error its status (with `retry-after` when given) and the API's error body; a
 * request with `stream: true` gets its answer streamed (tool calls are not streamed: a 500 says so). The
 * replies are hand-written test data.
 */
export function startOneRouteChat(
  api: OneRouteChat,
  rules: ProviderRule[],
): Promise<ScriptedHttpServer<ProviderRule>> {
  const chat: AnswerRequest<ChatRule> = ({ method, path, body }, take) => {
    if (method !== "POST" || path !== api.path) return undefined;
    const model = typeof body.model === "string" ? body.model : "";
    const lastUser = lastUserText(body);
    const rule = take((candidate) => matchHolds(candidate.match, model, () => [lastUser]));
    if (rule === undefined) {
      return { status: 500, payload: api.errorBody(`no scripted response for model ${model}: ${lastUser}`) };
    }
    const { reply } = rule;
    if ("status" in reply) {
      return {
        status: reply.status,
        headers: retryAfterHeader(reply),
        payload: api.errorBody(reply.message ?? `scripted error ${reply.status}`),
      };
    }
    if (body.stream !== true) return { status: 200, payload: api.okBody(model, reply) };
    if ("toolCalls" in reply)
      return { status: 500, payload: api.errorBody("this fake API does not stream tool calls") };
    return streamedReply(api.streaming.framing(model), reply, api.streaming.defaultTokens);
  };
  return startScriptedHttp<ProviderRule>(withEmbeddings(api.embeddings, chat), rules);
}
