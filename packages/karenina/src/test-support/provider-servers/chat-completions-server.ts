/**
 * Fake chat-completions APIs in the dialects of Mistral (`/v1/chat/completions`, errors `{object: "error",
 * message, type, param, code}`), Groq (`/openai/v1/chat/completions`, `x_groq` beside the reply, errors
 * `{error: {message, type}}`), Azure OpenAI (`/openai/deployments/<deployment>/chat/completions?api-version=`
 * or `/openai/v1/chat/completions`, key in `api-key`, `retry-after-ms` beside `retry-after`), and the plain
 * OpenAI shape xAI, DeepSeek and Together speak, answering from a script. All but Groq (which has no
 * embeddings API) also serve OpenAI-shaped embeddings (`/v1/embeddings`; Azure's
 * `/openai/deployments/<deployment>/embeddings` or `/openai/v1/embeddings`) from `endpoint: "embeddings"` rules.
 *
 * A request with `stream: true` is answered as each API streams (server-sent `data:` chunks of
 * `chat.completion.chunk`, then `data: [DONE]`), its usage where the API puts it: Mistral on the chunk with the
 * finish reason, Groq in that chunk's `x_groq.usage`, Azure and the OpenAI shape in a last chunk without
 * choices, sent only when the request asks for it (`stream_options.include_usage`). Azure's stream opens with
 * a chunk of prompt filter results and no choices. Streamed tool calls are not served.
 *
 * Every scripted reply is hand-written test data: nothing here was produced by a real model. Replies carry
 * `system_fingerprint: "hand-written-test-data"` so a stray recording is recognisable.
 */
import {
  type AnswerRequest,
  type HttpReply,
  lastUserText,
  matchHolds,
  retryAfterHeader,
  type ScriptedHttpServer,
  type ScriptedReplyOf,
  type ScriptMatch,
  type ScriptRuleOf,
  startScriptedHttp,
  type TakeRule,
} from "../scripted-http.js";
import { type EmbeddingsApi, inputTexts, type ProviderRule, withEmbeddings } from "./embeddings-route.js";
import {
  replyText,
  type ScriptedTokens,
  type StreamFraming,
  type StreamPacing,
  sseFrame,
  streamedReply,
} from "./wire-format.js";

/** One tool call of a scripted assistant turn. */
export interface ScriptedCall {
  name: string;
  arguments: Record<string, unknown>;
}

/**
 * What a fake chat API sends back: text, JSON, an error status, or an assistant turn calling tools. A text or
 * JSON reply to a request asking for a stream is streamed word by word, paced as {@link StreamPacing} says.
 */
export type ChatReply = ScriptedReplyOf<
  ScriptedTokens,
  { toolCalls: ScriptedCall[]; usage?: ScriptedTokens }
> &
  StreamPacing;

/** One rule of a fake chat API's script. */
export type ChatRule = ScriptRuleOf<ScriptMatch, ChatReply>;

/**
 * The scripted answer to a chat request for `model` whose last user message is `lastUser`: the rule's success
 * reply, or the HTTP reply that ends the request (a 500 naming them when no rule answers; a scripted error with
 * its `retry-after`), in the API's error shape.
 */
export function takeChatReply(
  take: TakeRule<ChatRule>,
  model: string,
  lastUser: string,
  errorReply: (status: number, message: string) => HttpReply,
): { reply: Exclude<ChatReply, { status: number }> } | { sent: HttpReply } {
  const rule = take((candidate) => matchHolds(candidate.match, model, () => [lastUser]));
  if (rule === undefined) {
    return { sent: errorReply(500, `no scripted response for model ${model}: ${lastUser.slice(0, 80)}`) };
  }
  const { reply } = rule;
  if (!("status" in reply)) return { reply };
  const sent = errorReply(reply.status, reply.message ?? `scripted error ${reply.status}`);
  return { sent: { ...sent, headers: retryAfterHeader(reply) } };
}

/** The dialects served. */
export type ChatDialect = "mistral" | "groq" | "azure" | "openai";

/** A running fake chat API (with its embeddings endpoint, where the API has one). */
export interface ChatTestServer extends ScriptedHttpServer<ProviderRule> {
  /** The base URL its AI SDK provider wants (for Azure: the resource endpoint, without `/openai`). */
  readonly baseURL: string;
}

const FINGERPRINT = "hand-written-test-data";
const DEFAULT_TOKENS: ScriptedTokens = { input: 19, output: 6 };
const AZURE_DEPLOYMENT = /^\/openai\/deployments\/([^/]+)\/chat\/completions$/;
const AZURE_EMBEDDINGS = /^\/openai\/deployments\/([^/]+)\/embeddings$/;

interface Dialect {
  basePath: string;
  /** The model a chat request asks for, or undefined when the path is not the dialect's chat endpoint. */
  model(path: string, body: Record<string, unknown>): string | undefined;
  error(status: number, message: string): unknown;
  /** Headers of an error reply besides `retry-after`. */
  errorHeaders?(reply: { retryAfter?: number }): Record<string, string>;
  /** Fields the API adds to a completion. */
  extra?: Record<string, unknown>;
  /** A tool call's id as the API makes it. */
  callId(index: number): string;
  /** The model an embeddings request asks for; undefined when the path is not its embeddings endpoint (Groq has none). */
  embeddingsModel?(path: string, body: Record<string, unknown>): string | undefined;
  /**
   * Where a streamed reply carries the usage: on the chunk with the finish reason (Mistral), in its `x_groq`
   * (Groq), or in a last chunk without choices when the request asks for it (OpenAI, Azure).
   */
  streamUsage: "finish-chunk" | "x_groq" | "when-asked";
  /** Fields the API adds to each streamed choice (Azure's content filter results). */
  streamedChoiceExtra?: Record<string, unknown>;
  /** Chunks the API streams before the first choice (Azure's prompt filter results). */
  streamPreamble?: unknown[];
}

const SAFE = { filtered: false, severity: "safe" };
const AZURE_FILTERS = { hate: SAFE, self_harm: SAFE, sexual: SAFE, violence: SAFE };

const bodyModel = (body: Record<string, unknown>) => (typeof body.model === "string" ? body.model : "");

const DIALECTS: Record<ChatDialect, Dialect> = {
  mistral: {
    basePath: "/v1",
    model: (path, body) => (path === "/v1/chat/completions" ? bodyModel(body) : undefined),
    error: (status, message) => ({
      object: "error",
      message,
      type: status === 429 ? "rate_limited" : "invalid_request_error",
      param: null,
      code: String(status),
    }),
    // Mistral's tool-call ids are nine letters and digits.
    callId: (index) => `hwtd${String(index).padStart(5, "0")}`,
    embeddingsModel: (path, body) => (path === "/v1/embeddings" ? bodyModel(body) : undefined),
    streamUsage: "finish-chunk",
  },
  groq: {
    basePath: "/openai/v1",
    model: (path, body) => (path === "/openai/v1/chat/completions" ? bodyModel(body) : undefined),
    error: (status, message) => ({
      error: { message, type: status === 429 ? "tokens" : "invalid_request_error", code: String(status) },
    }),
    extra: { x_groq: { id: "req_hand_written_test_data" } },
    callId: (index) => `call_hwtd_${index}`,
    streamUsage: "x_groq",
  },
  azure: {
    basePath: "",
    model(path, body) {
      const deployment = AZURE_DEPLOYMENT.exec(path)?.[1];
      if (deployment !== undefined) return decodeURIComponent(deployment);
      return path === "/openai/v1/chat/completions" ? bodyModel(body) : undefined;
    },
    error: (status, message) => ({ error: { code: String(status), message } }),
    errorHeaders: (reply): Record<string, string> =>
      reply.retryAfter === undefined ? {} : { "retry-after-ms": String(reply.retryAfter * 1000) },
    callId: (index) => `call_hwtd_${index}`,
    embeddingsModel(path, body) {
      const deployment = AZURE_EMBEDDINGS.exec(path)?.[1];
      if (deployment !== undefined) return decodeURIComponent(deployment);
      return path === "/openai/v1/embeddings" ? bodyModel(body) : undefined;
    },
    streamUsage: "when-asked",
    streamedChoiceExtra: { content_filter_results: AZURE_FILTERS },
    streamPreamble: [
      {
        choices: [],
        created: 0,
        id: "",
        model: "",
        object: "",
        prompt_filter_results: [{ prompt_index: 0, content_filter_results: AZURE_FILTERS }],
      },
    ],
  },
  openai: {
    basePath: "/v1",
    model: (path, body) => (path.endsWith("/chat/completions") ? bodyModel(body) : undefined),
    error: (status, message) => ({ error: { message, type: "scripted_error", code: String(status) } }),
    callId: (index) => `call_hwtd_${index}`,
    embeddingsModel: (path, body) => (path.endsWith("/embeddings") ? bodyModel(body) : undefined),
    streamUsage: "when-asked",
  },
};

const usageOf = (tokens: ScriptedTokens) => ({
  prompt_tokens: tokens.input,
  completion_tokens: tokens.output,
  total_tokens: tokens.input + tokens.output,
});

function completion(dialect: Dialect, model: string, reply: Exclude<ChatReply, { status: number }>) {
  const tokens = reply.usage ?? DEFAULT_TOKENS;
  const calls = "toolCalls" in reply ? reply.toolCalls : [];
  const content = replyText(reply);
  const message = {
    role: "assistant",
    content,
    ...(calls.length === 0
      ? {}
      : {
          tool_calls: calls.map((call, index) => ({
            id: dialect.callId(index + 1),
            type: "function",
            function: { name: call.name, arguments: JSON.stringify(call.arguments) },
          })),
        }),
  };
  return {
    id: `chatcmpl-hand-written-test-data-${Date.now()}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model,
    system_fingerprint: FINGERPRINT,
    choices: [{ index: 0, message, finish_reason: calls.length === 0 ? "stop" : "tool_calls" }],
    usage: usageOf(tokens),
    ...dialect.extra,
  };
}

/** How a dialect streams a chat completion to a request (`body`) asking for one. */
function chunkFraming(dialect: Dialect, model: string, body: Record<string, unknown>): StreamFraming {
  const base = {
    id: `chatcmpl-hand-written-test-data-${Date.now()}`,
    object: "chat.completion.chunk",
    created: Math.floor(Date.now() / 1000),
    model,
    system_fingerprint: FINGERPRINT,
  };
  const choice = (delta: Record<string, unknown>, finish: string | null = null) => ({
    index: 0,
    delta,
    finish_reason: finish,
    ...dialect.streamedChoiceExtra,
  });
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
    sseFrame({ ...base, choices, ...extra });
  const options = body.stream_options as { include_usage?: unknown } | undefined;
  return {
    contentType: "text/event-stream",
    open: () => [
      ...(dialect.streamPreamble ?? []).map((preamble) => sseFrame(preamble)),
      chunk([choice({ role: "assistant", content: "" })], dialect.extra),
    ],
    delta: (text) => [chunk([choice({ content: text })])],
    close(tokens) {
      const usage = usageOf(tokens);
      const asked = options?.include_usage === true;
      const finish = {
        "finish-chunk": () => [chunk([choice({ content: "" }, "stop")], { usage })],
        x_groq: () => [
          chunk([choice({}, "stop")], { x_groq: { ...(dialect.extra?.x_groq as object), usage } }),
        ],
        "when-asked": () => [chunk([choice({}, "stop")]), ...(asked ? [chunk([], { usage })] : [])],
      }[dialect.streamUsage];
      return [...finish(), "data: [DONE]\n\n"];
    },
  };
}

/** The OpenAI-shaped embeddings endpoint of a dialect: `data[].embedding` and `usage.prompt_tokens`. */
function openAiStyleEmbeddings(dialect: Dialect): EmbeddingsApi {
  return {
    read({ method, path, body }) {
      const model = method === "POST" ? dialect.embeddingsModel?.(path, body) : undefined;
      return model === undefined ? undefined : { model, inputs: inputTexts(body.input) };
    },
    ok: ({ model }, vectors, tokens) => ({
      status: 200,
      payload: {
        id: `embd-hand-written-test-data-${Date.now()}`,
        object: "list",
        model,
        data: vectors.map((embedding, index) => ({ object: "embedding", index, embedding })),
        usage: { prompt_tokens: tokens, total_tokens: tokens },
      },
    }),
    error: (status, message, reply) => ({
      status,
      headers: dialect.errorHeaders?.(reply) ?? {},
      payload: dialect.error(status, message),
    }),
  };
}

/** How a dialect's chat endpoint answers from chat rules. */
function chatAnswer(wire: Dialect): AnswerRequest<ChatRule> {
  return ({ method, path, body }, take): HttpReply | undefined => {
    const model = method === "POST" ? wire.model(path, body) : undefined;
    if (model === undefined) return undefined;
    const lastUser = lastUserText(body);
    const rule = take((candidate) => matchHolds(candidate.match, model, () => [lastUser]));
    if (rule === undefined) {
      return {
        status: 500,
        payload: wire.error(500, `no scripted response for model ${model}: ${lastUser}`),
      };
    }
    const { reply } = rule;
    if ("status" in reply) {
      return {
        status: reply.status,
        headers: { ...retryAfterHeader(reply), ...wire.errorHeaders?.(reply) },
        payload: wire.error(reply.status, reply.message ?? `scripted error ${reply.status}`),
      };
    }
    if (body.stream !== true) return { status: 200, payload: completion(wire, model, reply) };
    if ("toolCalls" in reply) {
      return { status: 500, payload: wire.error(500, "this fake API does not stream tool calls") };
    }
    return streamedReply(chunkFraming(wire, model, body), reply, DEFAULT_TOKENS);
  };
}

/**
 * Starts a fake chat-completions API of `dialect`. Rules match the requested model (for Azure's deployment
 * URLs, the deployment) and the last user message; a request no rule answers gets a 500 naming it. Rules with
 * `endpoint: "embeddings"` answer the dialect's embeddings endpoint instead (see `embeddings-route.ts`).
 */
export async function startChatServer(
  dialect: ChatDialect,
  rules: ProviderRule[] = [],
): Promise<ChatTestServer> {
  const wire = DIALECTS[dialect];
  const server = await startScriptedHttp<ProviderRule>(
    withEmbeddings(openAiStyleEmbeddings(wire), chatAnswer(wire)),
    rules,
  );
  return Object.assign(server, { baseURL: `${server.url}${wire.basePath}` });
}
