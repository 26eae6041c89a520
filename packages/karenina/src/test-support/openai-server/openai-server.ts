/**
 * A local OpenAI-compatible HTTP server for tests: real HTTP on 127.0.0.1 at a random port, answering from a
 * script of hand-written replies and recording every request it receives.
 *
 * Every scripted reply is hand-written test data: nothing here was produced by a real model. Responses carry
 * `system_fingerprint: "hand-written-test-data"` so a stray recording is recognisable.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** Which requests a rule answers. Every given criterion must hold; a rule without criteria matches any request. */
export interface ScriptMatch {
  /** The endpoint; default `"chat"`. */
  endpoint?: "chat" | "embeddings";
  /** Exact `model` of the request. */
  model?: string;
  /** A substring of the last user message (chat) or of any input string (embeddings). */
  lastUserIncludes?: string;
}

/** Token counts reported in the reply's `usage`. */
export interface ScriptedUsage {
  prompt_tokens: number;
  completion_tokens: number;
}

/** What the server sends back. Exactly one of `text`, `json`, `status`, `embeddings`. */
export type ScriptedReply = (
  | { text: string; usage?: ScriptedUsage }
  | { json: unknown; usage?: ScriptedUsage }
  | { status: number; message?: string; retryAfter?: number }
  | { embeddings: number[][] }
) & {
  /** Wait this long before answering (the request may be aborted meanwhile). */
  delayMs?: number;
};

/** One rule of a script: a matcher and a reply. A rule is used once unless `repeat` is set. */
export interface ScriptRule {
  match?: ScriptMatch;
  reply: ScriptedReply;
  repeat?: boolean;
}

/** A request as the server saw it. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown>;
}

/** A running scripted server. */
export interface OpenAiTestServer {
  /** `http://127.0.0.1:<port>` (no `/v1`). */
  readonly url: string;
  /** `http://127.0.0.1:<port>/v1`, the base URL an OpenAI client wants. */
  readonly baseURL: string;
  /** Every request received, in arrival order. */
  readonly requests: RecordedRequest[];
  /** Appends rules to the script. */
  script(...rules: ScriptRule[]): void;
  close(): Promise<void>;
}

const DEFAULT_USAGE: ScriptedUsage = { prompt_tokens: 11, completion_tokens: 7 };
const FINGERPRINT = "hand-written-test-data";

interface ChatMessage {
  role?: string;
  content?: unknown;
}

function lastUserText(body: Record<string, unknown>): string {
  const messages = Array.isArray(body.messages) ? (body.messages as ChatMessage[]) : [];
  const last = messages.filter((m) => m.role === "user").at(-1);
  if (typeof last?.content === "string") return last.content;
  if (Array.isArray(last?.content)) {
    return (last.content as { text?: unknown }[])
      .map((part) => (typeof part.text === "string" ? part.text : ""))
      .join("");
  }
  return "";
}

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
  if (match?.model !== undefined && body.model !== match.model) return false;
  if (match?.lastUserIncludes !== undefined) {
    const haystack = endpoint === "chat" ? [lastUserText(body)] : embeddingInputs(body);
    if (!haystack.some((text) => text.includes(match.lastUserIncludes as string))) return false;
  }
  return true;
}

/** A deterministic 8-dimension vector for a text, used when no embeddings rule matches. */
function defaultEmbedding(text: string): number[] {
  const vector = new Array<number>(8).fill(0);
  for (let i = 0; i < text.length; i++) vector[i % 8] = (vector[i % 8] ?? 0) + text.charCodeAt(i);
  const norm = Math.hypot(...vector) || 1;
  return vector.map((x) => x / norm);
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  if (res.destroyed) return;
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

function chatCompletion(body: Record<string, unknown>, content: string, usage: ScriptedUsage) {
  return {
    id: `chatcmpl-test-${Date.now()}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: body.model,
    system_fingerprint: FINGERPRINT,
    choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
    usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
  };
}

function replyBody(reply: ScriptedReply, endpoint: "chat" | "embeddings", body: Record<string, unknown>) {
  if ("status" in reply) {
    const headers: Record<string, string> =
      reply.retryAfter === undefined ? {} : { "retry-after": String(reply.retryAfter) };
    const message = reply.message ?? `scripted error ${reply.status}`;
    return { status: reply.status, headers, payload: { error: { message, type: "scripted_error" } } };
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
  const content = "text" in reply ? reply.text : JSON.stringify(reply.json);
  return { status: 200, headers: {}, payload: chatCompletion(body, content, reply.usage ?? DEFAULT_USAGE) };
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  if (text === "") return {};
  const parsed: unknown = JSON.parse(text);
  return parsed !== null && typeof parsed === "object" ? (parsed as Record<string, unknown>) : {};
}

/**
 * Starts a scripted OpenAI-compatible server. Rules are tried in order; the first unused (or `repeat`) rule
 * whose matcher holds answers. A chat request no rule answers gets a 500 naming the request, so a test fails
 * loudly; an embeddings request no rule answers gets deterministic vectors.
 */
export async function startOpenAiServer(rules: ScriptRule[] = []): Promise<OpenAiTestServer> {
  const script: { rule: ScriptRule; used: boolean }[] = rules.map((rule) => ({ rule, used: false }));
  const requests: RecordedRequest[] = [];

  const server = createServer(async (req, res) => {
    const path = (req.url ?? "").split("?")[0] ?? "";
    const body: Record<string, unknown> = await readJson(req).catch(() => ({}));
    requests.push({ method: req.method ?? "", path, headers: req.headers, body });
    const endpoint = path.endsWith("/chat/completions")
      ? "chat"
      : path.endsWith("/embeddings")
        ? "embeddings"
        : undefined;
    if (endpoint === undefined) return send(res, 404, { error: { message: `no route ${path}` } });

    const entry = script.find((e) => (!e.used || e.rule.repeat) && matches(e.rule.match, endpoint, body));
    if (entry === undefined && endpoint === "chat") {
      const message = `no scripted response for model ${String(body.model)}: ${lastUserText(body).slice(0, 80)}`;
      return send(res, 500, { error: { message } });
    }
    if (entry) entry.used = true;
    const reply: ScriptedReply = entry?.rule.reply ?? {
      embeddings: embeddingInputs(body).map(defaultEmbedding),
    };
    const { status, headers, payload } = replyBody(reply, endpoint, body);
    if (reply.delayMs) {
      const timer = setTimeout(() => send(res, status, payload, headers), reply.delayMs);
      res.on("close", () => clearTimeout(timer));
      return;
    }
    send(res, status, payload, headers);
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    baseURL: `${url}/v1`,
    requests,
    script: (...more) => script.push(...more.map((rule) => ({ rule, used: false }))),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
