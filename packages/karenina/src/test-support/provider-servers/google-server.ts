/**
 * A fake Gemini API for tests, answering from a script, in both of Google's URL shapes:
 * - the Gemini API (Google Generative Language API): `POST /v1beta/models/{model}:generateContent` (and
 *   `:streamGenerateContent`), embeddings at `:batchEmbedContents` and `:embedContent`;
 * - Vertex AI: `POST /{v1|v1beta1}/projects/{project}/locations/{location}/publishers/google/models/{model}:
 *   generateContent` (and `:streamGenerateContent`), express mode's `/{v1|v1beta1}/publishers/google/models/...`,
 *   embeddings at `:predict`.
 * Tool calls are `functionCall` parts; usage is `usageMetadata`; errors are `{error: {code, message, status}}`.
 *
 * Every scripted reply is hand-written test data: nothing here was produced by a real model. Replies carry
 * `modelVersion: "hand-written-test-data"` so a stray recording is recognisable.
 */
import {
  type AnswerRequest,
  type HttpReply,
  type RecordedRequest,
  type ScriptedHttpServer,
  startScriptedHttp,
} from "../scripted-http.js";
import { type ChatReply, type ChatRule, takeChatReply } from "./chat-completions-server.js";
import { type EmbeddingsApi, type ProviderRule, withEmbeddings } from "./embeddings-route.js";
import { type ScriptedTokens, type StreamFraming, sseFrame, streamedReply } from "./wire-format.js";

/**
 * A running fake Gemini server: `baseURL` is the Gemini API's (`http://127.0.0.1:<port>/v1beta`); `url` is the
 * host Vertex clients take (their paths start `/v1beta1/projects/...`).
 */
export interface GoogleTestServer extends ScriptedHttpServer<ProviderRule> {
  readonly baseURL: string;
}

const DEFAULT_TOKENS: ScriptedTokens = { input: 17, output: 4 };
const HAND_WRITTEN = "hand-written-test-data";

const STATUS_NAMES: Record<number, string> = {
  400: "INVALID_ARGUMENT",
  401: "UNAUTHENTICATED",
  403: "PERMISSION_DENIED",
  404: "NOT_FOUND",
  429: "RESOURCE_EXHAUSTED",
  500: "INTERNAL",
  503: "UNAVAILABLE",
};

const MODEL_PATH = String.raw`models\/([^/:]+):([A-Za-z]+)$`;
const GEMINI_ROUTE = new RegExp(String.raw`^\/v1beta\/${MODEL_PATH}`);
const VERTEX_ROUTE = new RegExp(
  String.raw`^\/v1(?:beta1)?\/(?:projects\/[^/]+\/locations\/[^/]+\/)?publishers\/google\/${MODEL_PATH}`,
);

/** The model and method of a request to either API; undefined for another path. */
function routeOf(path: string): { model: string; method: string } | undefined {
  const match = GEMINI_ROUTE.exec(path) ?? VERTEX_ROUTE.exec(path);
  if (match?.[1] === undefined || match[2] === undefined) return undefined;
  return { model: decodeURIComponent(match[1]), method: match[2] };
}

interface GoogleContent {
  role?: string;
  parts?: { text?: unknown }[];
}

function lastUserText(body: Record<string, unknown>): string {
  const contents = Array.isArray(body.contents) ? (body.contents as GoogleContent[]) : [];
  const last = contents.filter((c) => c.role === "user").at(-1);
  return (last?.parts ?? []).map((part) => (typeof part.text === "string" ? part.text : "")).join("");
}

const errorReply = (status: number, message: string): HttpReply => ({
  status,
  payload: { error: { code: status, message, status: STATUS_NAMES[status] ?? "UNKNOWN" } },
});

/** The text of a scripted reply: its text, its JSON serialized, or its streamed chunks joined. */
function textOf(reply: object): string {
  if ("text" in reply && typeof reply.text === "string") return reply.text;
  if ("json" in reply) return JSON.stringify(reply.json);
  return "chunks" in reply && Array.isArray(reply.chunks) ? reply.chunks.join("") : "";
}

const usageMetadata = (tokens: ScriptedTokens) => ({
  promptTokenCount: tokens.input,
  candidatesTokenCount: tokens.output,
  totalTokenCount: tokens.input + tokens.output,
});

function generated(reply: Exclude<ChatReply, { status: number }>) {
  const tokens = reply.usage ?? DEFAULT_TOKENS;
  const parts =
    "toolCalls" in reply
      ? reply.toolCalls.map((call) => ({ functionCall: { name: call.name, args: call.arguments } }))
      : [{ text: textOf(reply) }];
  return {
    candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }],
    usageMetadata: usageMetadata(tokens),
    modelVersion: HAND_WRITTEN,
    responseId: `${HAND_WRITTEN}-${Date.now()}`,
  };
}

/** Gemini's streamed answer (`?alt=sse`): a candidate per text delta, the finish reason and usage in the last. */
const GEMINI_FRAMING: StreamFraming = {
  contentType: "text/event-stream",
  open: () => [],
  delta: (text) => [sseFrame({ candidates: [{ content: { role: "model", parts: [{ text }] }, index: 0 }] })],
  close: (tokens) => [
    sseFrame({
      candidates: [{ content: { role: "model", parts: [{ text: "" }] }, finishReason: "STOP", index: 0 }],
      usageMetadata: usageMetadata(tokens),
      modelVersion: HAND_WRITTEN,
    }),
  ],
};

const chat: AnswerRequest<ChatRule> = ({ method, path, body }, take) => {
  const route = method === "POST" ? routeOf(path) : undefined;
  if (route === undefined) return undefined;
  const stream = route.method === "streamGenerateContent";
  if (!stream && route.method !== "generateContent") return undefined;
  const lastUser = lastUserText(body);
  const answer = takeChatReply(take, route.model, lastUser, errorReply);
  if ("sent" in answer) return answer.sent;
  const { reply } = answer;
  if (stream && ("text" in reply || "json" in reply))
    return streamedReply(GEMINI_FRAMING, reply, DEFAULT_TOKENS);
  const payload = generated(reply);
  return stream ? { status: 200, payload, sse: { events: [payload], tail: [] } } : { status: 200, payload };
};

const EMBEDDING_METHODS = new Set(["batchEmbedContents", "embedContent", "predict"]);

const partsText = (content: unknown): string =>
  ((content as GoogleContent | undefined)?.parts ?? [])
    .map((part) => (typeof part.text === "string" ? part.text : ""))
    .join("");

/** The texts of an embeddings request: Gemini's `requests[].content` or `content`, Vertex's `instances[].content`. */
function embeddingInputs(method: string, body: Record<string, unknown>): string[] {
  if (method === "predict") {
    const instances = Array.isArray(body.instances) ? (body.instances as { content?: unknown }[]) : [];
    return instances.map((instance) => (typeof instance.content === "string" ? instance.content : ""));
  }
  if (method === "embedContent") return [partsText(body.content)];
  const requests = Array.isArray(body.requests) ? (body.requests as { content?: unknown }[]) : [];
  return requests.map((request) => partsText(request.content));
}

/** Gemini's `batchEmbedContents`/`embedContent` (no token counts) and Vertex's `predict` (`statistics.token_count`). */
const GOOGLE_EMBEDDINGS: EmbeddingsApi = {
  read({ method, path, body }: RecordedRequest) {
    const route = method === "POST" ? routeOf(path) : undefined;
    if (route === undefined || !EMBEDDING_METHODS.has(route.method)) return undefined;
    return { model: route.model, inputs: embeddingInputs(route.method, body) };
  },
  ok(call, vectors, tokens, { path }) {
    const method = routeOf(path)?.method;
    if (method === "predict") {
      // Vertex counts tokens per text; the first text takes the remainder so that the sum is `tokens`.
      const share = Math.floor(tokens / vectors.length);
      const countOf = (index: number) => (index === 0 ? tokens - share * (vectors.length - 1) : share);
      return {
        status: 200,
        payload: {
          predictions: vectors.map((values, index) => ({
            embeddings: { values, statistics: { token_count: countOf(index), truncated: false } },
          })),
          metadata: { billableCharacterCount: call.inputs.join("").length },
        },
      };
    }
    if (method === "embedContent")
      return { status: 200, payload: { embedding: { values: vectors[0] ?? [] } } };
    return { status: 200, payload: { embeddings: vectors.map((values) => ({ values })) } };
  },
  error: (status, message) => errorReply(status, message),
};

/**
 * Starts a fake Gemini API (Gemini API and Vertex AI paths). JSON replies are sent as the candidate's text (as
 * the API does under `responseMimeType: application/json`); a scripted tool call as `functionCall` parts; a
 * chat request no rule answers gets a 500 naming it; `endpoint: "embeddings"` rules answer the embeddings
 * methods (other embeddings requests get vectors made from their texts).
 */
export async function startGoogleServer(rules: ProviderRule[] = []): Promise<GoogleTestServer> {
  const server = await startScriptedHttp<ProviderRule>(withEmbeddings(GOOGLE_EMBEDDINGS, chat), rules);
  return Object.assign(server, { baseURL: `${server.url}/v1beta` });
}
