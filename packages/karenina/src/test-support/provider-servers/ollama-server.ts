/**
 * A fake Ollama native API (`POST /api/chat`) for tests, answering from a script: the reply in `message`, tool
 * calls with their arguments as objects, token counts in `prompt_eval_count` and `eval_count`, errors as Ollama
 * sends them (`{"error": "..."}`). A request with `stream: true` (Ollama's default; the AI SDK provider always
 * says which it wants) is answered as Ollama streams: NDJSON (`application/x-ndjson`), one object per line
 * with `done: false` and a `message.content` delta, the last with `done: true`, `done_reason` and the counts. `POST /api/embed` (`input`: a text or texts)
 * answers `endpoint: "embeddings"` rules with `embeddings` and the tokens in `prompt_eval_count`.
 *
 * Every scripted reply is hand-written test data: nothing here was produced by a real model. Replies carry
 * `created_at` of the Unix epoch so a stray recording is recognisable.
 */
import type { ScriptedHttpServer } from "../scripted-http.js";
import type { ChatReply } from "./chat-completions-server.js";
import { type EmbeddingsApi, inputTexts, type ProviderRule } from "./embeddings-route.js";
import { startOneRouteChat } from "./one-route-chat.js";
import { replyText, type ScriptedTokens, type StreamFraming } from "./wire-format.js";

/** A running fake Ollama server; `url` is the host an Ollama client wants (`http://127.0.0.1:<port>`). */
export type OllamaTestServer = ScriptedHttpServer<ProviderRule>;

const DEFAULT_TOKENS: ScriptedTokens = { input: 23, output: 8 };
const HAND_WRITTEN = "1970-01-01T00:00:00Z";

function chatResponse(model: string, reply: Exclude<ChatReply, { status: number }>) {
  const tokens = reply.usage ?? DEFAULT_TOKENS;
  const calls = "toolCalls" in reply ? reply.toolCalls : [];
  const content = replyText(reply);
  return {
    model,
    created_at: HAND_WRITTEN,
    message: {
      role: "assistant",
      content,
      ...(calls.length === 0
        ? {}
        : {
            tool_calls: calls.map((call) => ({ function: { name: call.name, arguments: call.arguments } })),
          }),
    },
    done: true,
    done_reason: "stop",
    total_duration: 1000,
    prompt_eval_count: tokens.input,
    eval_count: tokens.output,
  };
}

/** Ollama's streamed chat answer: NDJSON lines, the last one `done` with the durations and token counts. */
function ndjsonFraming(model: string): StreamFraming {
  const line = (value: unknown) => `${JSON.stringify(value)}\n`;
  const message = (content: string) => ({
    model,
    created_at: HAND_WRITTEN,
    message: { role: "assistant", content },
  });
  return {
    contentType: "application/x-ndjson",
    open: () => [],
    delta: (text) => [line({ ...message(text), done: false })],
    close: (tokens) => [
      line({
        ...message(""),
        done: true,
        done_reason: "stop",
        total_duration: 1000,
        load_duration: 0,
        prompt_eval_count: tokens.input,
        prompt_eval_duration: 500,
        eval_count: tokens.output,
        eval_duration: 500,
      }),
    ],
  };
}

/** Ollama's `POST /api/embed`. */
const OLLAMA_EMBED: EmbeddingsApi = {
  read: ({ method, path, body }) =>
    method === "POST" && path === "/api/embed"
      ? { model: typeof body.model === "string" ? body.model : "", inputs: inputTexts(body.input) }
      : undefined,
  invalid: ({ body }) =>
    typeof body.model === "string" && body.model !== "" ? undefined : "model is required",
  ok: ({ model }, vectors, tokens) => ({
    status: 200,
    payload: {
      model,
      embeddings: vectors,
      total_duration: 1000,
      load_duration: 0,
      prompt_eval_count: tokens,
    },
  }),
  error: (status, message) => ({ status, payload: { error: message } }),
};

/** Starts a fake Ollama server; a chat request no rule answers gets a 500 naming it. */
export function startOllamaServer(rules: ProviderRule[] = []): Promise<OllamaTestServer> {
  return startOneRouteChat(
    {
      path: "/api/chat",
      errorBody: (message) => ({ error: message }),
      okBody: (model, reply) => chatResponse(model, reply),
      embeddings: OLLAMA_EMBED,
      streaming: { framing: ndjsonFraming, defaultTokens: DEFAULT_TOKENS },
    },
    rules,
  );
}
