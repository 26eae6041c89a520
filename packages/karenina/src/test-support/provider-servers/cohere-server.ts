/**
 * A fake Cohere v2 chat API (`POST /v2/chat`) for tests, answering from a script: the reply as
 * `message.content` text blocks, tool calls in `message.tool_calls` with a `tool_plan`, token counts in
 * `usage.tokens` and `usage.billed_units`, errors as Cohere sends them (`{"message": ...}`). A request with
 * `stream: true` is answered as Cohere streams: server-sent events named by their type (`event:` beside
 * `data:`): `message-start`, `content-start`, `content-delta` per chunk, `content-end`, then `message-end` with
 * the finish reason and the usage. `POST /v2/embed`
 * (`texts`, with the `input_type` v3 models require) answers `endpoint: "embeddings"` rules with
 * `embeddings.float` and the tokens in `meta.billed_units.input_tokens`.
 *
 * Every scripted reply is hand-written test data: nothing here was produced by a real model. Replies carry
 * ids starting `hand-written-test-data-` so a stray recording is recognisable.
 */
import type { ScriptedHttpServer } from "../scripted-http.js";
import type { ChatReply } from "./chat-completions-server.js";
import { type EmbeddingsApi, inputTexts, type ProviderRule } from "./embeddings-route.js";
import { startOneRouteChat } from "./one-route-chat.js";
import { replyText, type ScriptedTokens, type StreamFraming, sseFrame } from "./wire-format.js";

/** A running fake Cohere API; `url` is the host Cohere's clients want (`/v2` is the API's path). */
export type CohereTestServer = ScriptedHttpServer<ProviderRule>;

const DEFAULT_TOKENS: ScriptedTokens = { input: 21, output: 5 };
const HAND_WRITTEN = "hand-written-test-data";

const countsOf = (tokens: ScriptedTokens) => ({ input_tokens: tokens.input, output_tokens: tokens.output });

function chatResponse(reply: Exclude<ChatReply, { status: number }>) {
  const counts = countsOf(reply.usage ?? DEFAULT_TOKENS);
  const calls = "toolCalls" in reply ? reply.toolCalls : [];
  const text = replyText(reply);
  const message =
    calls.length === 0
      ? { role: "assistant", content: [{ type: "text", text }] }
      : {
          role: "assistant",
          tool_plan: "I will call the tool.",
          tool_calls: calls.map((call, index) => ({
            id: `${HAND_WRITTEN}-call-${index + 1}`,
            type: "function",
            function: { name: call.name, arguments: JSON.stringify(call.arguments) },
          })),
        };
  return {
    id: `${HAND_WRITTEN}-${Date.now()}`,
    finish_reason: calls.length === 0 ? "COMPLETE" : "TOOL_CALL",
    message,
    usage: { billed_units: counts, tokens: counts },
  };
}

/** Cohere's streamed chat answer: typed server-sent events, the usage in `message-end`. */
function eventFraming(): StreamFraming {
  const event = (type: string, fields: Record<string, unknown>) => sseFrame({ type, ...fields }, type);
  return {
    contentType: "text/event-stream",
    open: () => [
      event("message-start", {
        id: `${HAND_WRITTEN}-${Date.now()}`,
        delta: { message: { role: "assistant", content: [], tool_plan: "", tool_calls: [], citations: [] } },
      }),
      event("content-start", { index: 0, delta: { message: { content: { type: "text", text: "" } } } }),
    ],
    delta: (text) => [event("content-delta", { index: 0, delta: { message: { content: { text } } } })],
    close: (tokens) => [
      event("content-end", { index: 0 }),
      event("message-end", {
        delta: {
          finish_reason: "COMPLETE",
          usage: { billed_units: countsOf(tokens), tokens: countsOf(tokens) },
        },
      }),
    ],
  };
}

const INPUT_TYPES = new Set(["search_document", "search_query", "classification", "clustering", "image"]);

/** Cohere's `POST /v2/embed`. */
const COHERE_EMBED: EmbeddingsApi = {
  read: ({ method, path, body }) =>
    method === "POST" && path === "/v2/embed"
      ? { model: typeof body.model === "string" ? body.model : "", inputs: inputTexts(body.texts) }
      : undefined,
  invalid: ({ body }) =>
    INPUT_TYPES.has(body.input_type as string)
      ? undefined
      : "invalid request: input_type is required for embed models v3 and higher",
  ok: (_call, vectors, tokens, { body }) => ({
    status: 200,
    payload: {
      id: `${HAND_WRITTEN}-embed-${Date.now()}`,
      embeddings: { float: vectors },
      texts: inputTexts(body.texts),
      meta: { api_version: { version: "2" }, billed_units: { input_tokens: tokens } },
      response_type: "embeddings_by_type",
    },
  }),
  error: (status, message) => ({ status, payload: { message } }),
};

/** Starts a fake Cohere v2 chat API; a chat request no rule answers gets a 500 naming it. */
export function startCohereServer(rules: ProviderRule[] = []): Promise<CohereTestServer> {
  return startOneRouteChat(
    {
      path: "/v2/chat",
      errorBody: (message) => ({ message: message }),
      okBody: (_model, reply) => chatResponse(reply),
      embeddings: COHERE_EMBED,
      streaming: { framing: eventFraming, defaultTokens: DEFAULT_TOKENS },
    },
    rules,
  );
}
