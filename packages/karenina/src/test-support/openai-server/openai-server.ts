/**
 * A local OpenAI-compatible HTTP server for tests: real HTTP on 127.0.0.1 at a random port, answering from a
 * script of hand-written replies and recording every request it receives.
 *
 * Every scripted reply is hand-written test data: nothing here was produced by a real model. Responses carry
 * `system_fingerprint: "hand-written-test-data"` so a stray recording is recognisable.
 */
import {
  type HttpReply,
  lastUserText,
  type ScriptMatch as ModelMatch,
  matchHolds,
  type RecordedRequest,
  retryAfterHeader,
  type ScriptedHttpServer,
  type ScriptedReplyOf,
  type ScriptRuleOf,
  startScriptedHttp,
} from "../scripted-http.js";

export type { RecordedRequest };

/** Which requests a rule answers: by model and last user message, on the chat endpoint unless it says otherwise. */
export interface ScriptMatch extends ModelMatch {
  /** The endpoint; default `"chat"`. */
  endpoint?: "chat" | "embeddings";
}

/** Token counts reported in the reply's `usage`. */
export interface ScriptedUsage {
  prompt_tokens: number;
  completion_tokens: number;
}

/** One tool call of a scripted assistant turn; `id` defaults to `call_<n>` (n counts the reply's calls from 1). */
export interface ScriptedToolCall {
  id?: string;
  name: string;
  arguments: Record<string, unknown>;
}

/**
 * A streamed answer (for a request with `stream: true`): `chunks` are sent at once as content deltas; the end
 * of the stream (finish reason and usage) follows after `stallMs`, or at once when it is not set.
 */
export interface ScriptedStream {
  chunks: string[];
  stallMs?: number;
  usage?: ScriptedUsage;
}

/**
 * What the server sends back: `text`, `json`, an error `status`, `embeddings` (vectors), `toolCalls` (an
 * assistant turn calling tools, with optional text beside them; finish reason `tool_calls`), or `chunks` (a
 * streamed answer that may stall, see {@link ScriptedStream}). A `text` or `json` reply to a request asking for
 * a stream is streamed in one chunk.
 */
export type ScriptedReply = ScriptedReplyOf<
  ScriptedUsage,
  | { embeddings: number[][] }
  | { toolCalls: ScriptedToolCall[]; text?: string; usage?: ScriptedUsage }
  | ScriptedStream
>;

/** One rule of the script. */
export type ScriptRule = ScriptRuleOf<ScriptMatch, ScriptedReply>;

/** A running scripted server; `url` is `http://127.0.0.1:<port>` (no `/v1`). */
export interface OpenAiTestServer extends ScriptedHttpServer<ScriptRule> {
  /** `http://127.0.0.1:<port>/v1`, the base URL an OpenAI client wants. */
  readonly baseURL: string;
}

const DEFAULT_USAGE: ScriptedUsage = { prompt_tokens: 11, completion_tokens: 7 };
const FINGERPRINT = "hand-written-test-data";

function embeddingInputs(body: Record<string, unknown>): string[] {
  const input = body.input;
  if (typeof input === "string") return [input];
  return Array.isArray(input) ? input.filter((x): x is string => typeof x === "string") : [];
}

function matches(
  match: ScriptMatch | undefined,
  endpoint: "chat" | "embeddings",
  body: Record<string, unknown>,
) {
  if ((match?.endpoint ?? "chat") !== endpoint) return false;
  return matchHolds(match, body.model, () =>
    endpoint === "chat" ? [lastUserText(body)] : embeddingInputs(body),
  );
}

/** A deterministic 8-dimension vector for a text, used when no embeddings rule matches. */
function defaultEmbedding(text: string): number[] {
  const vector = new Array<number>(8).fill(0);
  for (let i = 0; i < text.length; i++) vector[i % 8] = (vector[i % 8] ?? 0) + text.charCodeAt(i);
  const norm = Math.hypot(...vector) || 1;
  return vector.map((x) => x / norm);
}

function chatCompletion(
  body: Record<string, unknown>,
  content: string | null,
  usage: ScriptedUsage,
  toolCalls: ScriptedToolCall[] = [],
) {
  const message =
    toolCalls.length === 0
      ? { role: "assistant", content }
      : {
          role: "assistant",
          content,
          tool_calls: toolCalls.map((call, index) => ({
            id: call.id ?? `call_${index + 1}`,
            type: "function",
            function: { name: call.name, arguments: JSON.stringify(call.arguments) },
          })),
        };
  return {
    id: `chatcmpl-test-${Date.now()}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: body.model,
    system_fingerprint: FINGERPRINT,
    choices: [{ index: 0, message, finish_reason: toolCalls.length === 0 ? "stop" : "tool_calls" }],
    usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
  };
}

/** A streamed chat completion as the OpenAI API sends it: content deltas, the finish chunk, the usage chunk. */
function chatCompletionEvents(body: Record<string, unknown>, stream: ScriptedStream): HttpReply {
  const usage = stream.usage ?? DEFAULT_USAGE;
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) => ({
    id: "chatcmpl-test-stream",
    object: "chat.completion.chunk",
    created: Math.floor(Date.now() / 1000),
    model: body.model,
    system_fingerprint: FINGERPRINT,
    choices,
    ...extra,
  });
  const delta = (content: string, index: number) =>
    chunk([
      {
        index: 0,
        delta: index === 0 ? { role: "assistant", content } : { content },
        finish_reason: null,
      },
    ]);
  return {
    status: 200,
    payload: null,
    sse: {
      events: stream.chunks.map(delta),
      tail: [
        chunk([{ index: 0, delta: {}, finish_reason: "stop" }]),
        chunk([], { usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } }),
      ],
      ...(stream.stallMs === undefined ? {} : { stallMs: stream.stallMs }),
    },
  };
}

function replyBody(
  reply: ScriptedReply,
  endpoint: "chat" | "embeddings",
  body: Record<string, unknown>,
): HttpReply {
  if ("status" in reply) {
    const message = reply.message ?? `scripted error ${reply.status}`;
    return {
      status: reply.status,
      headers: retryAfterHeader(reply),
      payload: { error: { message, type: "scripted_error" } },
    };
  }
  if ("embeddings" in reply || endpoint === "embeddings") {
    const vectors = "embeddings" in reply ? reply.embeddings : embeddingInputs(body).map(defaultEmbedding);
    return {
      status: 200,
      headers: {},
      payload: {
        object: "list",
        model: body.model,
        data: vectors.map((embedding, index) => ({ object: "embedding", index, embedding })),
        usage: { prompt_tokens: 3, total_tokens: 3 },
      },
    };
  }
  if ("chunks" in reply) return chatCompletionEvents(body, reply);
  if ("toolCalls" in reply) {
    const completion = chatCompletion(
      body,
      reply.text ?? null,
      reply.usage ?? DEFAULT_USAGE,
      reply.toolCalls,
    );
    return { status: 200, headers: {}, payload: completion };
  }
  const content = "text" in reply ? reply.text : JSON.stringify(reply.json);
  if (body.stream === true) {
    return chatCompletionEvents(body, { chunks: [content], ...(reply.usage ? { usage: reply.usage } : {}) });
  }
  return { status: 200, headers: {}, payload: chatCompletion(body, content, reply.usage ?? DEFAULT_USAGE) };
}

/**
 * Starts a scripted OpenAI-compatible server. Rules are tried in order; the first unused (or `repeat`) rule
 * whose matcher holds answers. A chat request no rule answers gets a 500 naming the request, so a test fails
 * loudly; an embeddings request no rule answers gets deterministic vectors.
 */
export async function startOpenAiServer(rules: ScriptRule[] = []): Promise<OpenAiTestServer> {
  const server = await startScriptedHttp<ScriptRule>(({ path, body }, take) => {
    const endpoint = path.endsWith("/chat/completions")
      ? "chat"
      : path.endsWith("/embeddings")
        ? "embeddings"
        : undefined;
    if (endpoint === undefined) return undefined;
    const rule = take((candidate) => matches(candidate.match, endpoint, body));
    if (rule === undefined && endpoint === "chat") {
      const message = `no scripted response for model ${String(body.model)}: ${lastUserText(body).slice(0, 80)}`;
      return { status: 500, payload: { error: { message } } };
    }
    return replyBody(
      rule?.reply ?? { embeddings: embeddingInputs(body).map(defaultEmbedding) },
      endpoint,
      body,
    );
  }, rules);
  return Object.assign(server, { baseURL: `${server.url}/v1` });
}
