/**
 * The machinery every fake provider server of the tests shares: real HTTP on 127.0.0.1 at a random port, a
 * script of hand-written rules tried in order (a rule is used once unless it repeats), a reply delayed when
 * its rule asks, and every request recorded. What a request means and what goes back is the fake API's.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A request as the server saw it. */
export interface RecordedRequest {
  method: string;
  path: string;
  /** The query string without its `?` (empty when there is none). */
  query: string;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown>;
}

/**
 * One HTTP reply, sent as JSON, or streamed when `sse` (server-sent events) or `stream` (frames in the API's own
 * framing) is set (`payload` is then unused).
 */
export interface HttpReply {
  status: number;
  headers?: Record<string, string>;
  payload: unknown;
  sse?: ServerSentEvents;
  stream?: StreamedBody;
}

/**
 * A streamed reply already framed by the fake API (NDJSON lines, SSE with event names, AWS event-stream
 * messages): the `head` frames are written at once; then, after `stallMs` (if set), the `tail` frames, and the
 * response ends. A client whose timeout is shorter than `stallMs` sees the head and then silence.
 */
export interface StreamedBody {
  contentType: string;
  head: (string | Uint8Array)[];
  tail: (string | Uint8Array)[];
  stallMs?: number;
}

/**
 * A streamed reply: `events` are sent at once, each as a `data:` line; then, after `stallMs` (if set), the
 * `tail` events and the closing `data: [DONE]`. A client whose timeout is shorter than `stallMs` sees the
 * first events and then silence, as from a model that stalls mid-answer.
 */
export interface ServerSentEvents {
  events: unknown[];
  tail: unknown[];
  stallMs?: number;
}

function sendStream(res: ServerResponse, reply: HttpReply, stream: StreamedBody) {
  res.writeHead(reply.status, { "content-type": stream.contentType, ...reply.headers });
  const write = (frames: (string | Uint8Array)[]) => {
    for (const frame of frames) res.write(frame);
  };
  const finish = () => {
    if (res.destroyed) return;
    write(stream.tail);
    res.end();
  };
  write(stream.head);
  if (stream.stallMs === undefined) return finish();
  const timer = setTimeout(finish, stream.stallMs);
  res.on("close", () => clearTimeout(timer));
}

function sendEvents(res: ServerResponse, reply: HttpReply, sse: ServerSentEvents) {
  const data = (events: unknown[]) => events.map((event) => `data: ${JSON.stringify(event)}\n\n`);
  sendStream(res, reply, {
    contentType: "text/event-stream",
    head: data(sse.events),
    tail: [...data(sse.tail), "data: [DONE]\n\n"],
    ...(sse.stallMs === undefined ? {} : { stallMs: sse.stallMs }),
  });
}

/**
 * Which requests a rule answers, by the model asked for and the last user message. Every given criterion
 * must hold; a rule without criteria matches any request.
 */
export interface ScriptMatch {
  /** Exact model of the request. */
  model?: string;
  /** A substring of the last user message (of any input text, for an embeddings request). */
  lastUserIncludes?: string;
}

/** Whether `match` holds for a request for `model` whose texts to search (last user message, inputs) are `texts`. */
export function matchHolds(
  match: ScriptMatch | undefined,
  model: unknown,
  texts: () => readonly string[],
): boolean {
  if (match?.model !== undefined && model !== match.model) return false;
  const wanted = match?.lastUserIncludes;
  return wanted === undefined || texts().some((text) => text.includes(wanted));
}

/**
 * What a fake API sends back: exactly one of `text`, `json` (with the API's token counts `Usage`), an error
 * `status`, or one of the API's own `Extra` replies.
 */
export type ScriptedReplyOf<Usage, Extra = never> = (
  | { text: string; usage?: Usage }
  | { json: unknown; usage?: Usage }
  | { status: number; message?: string; retryAfter?: number }
  | Extra
) & {
  /** Wait this long before answering (the request may be aborted meanwhile). */
  delayMs?: number;
};

/** One rule of a script: a matcher and a reply. A rule is used once unless `repeat` is set. */
export interface ScriptRuleOf<Match, Reply> {
  match?: Match;
  reply: Reply;
  repeat?: boolean;
}

/** What the machinery needs of a rule: whether it stays in use, and how long its reply waits. */
export type ScriptedRule = ScriptRuleOf<unknown, { delayMs?: number }>;

/** Hands out the first rule still in use that `holds` accepts, and marks it used. */
export type TakeRule<Rule> = (holds: (rule: Rule) => boolean) => Rule | undefined;

/**
 * How a fake API answers one request, using `take` to find its rule; undefined when the path is none of
 * the API's endpoints (a 404 naming the path goes back).
 */
export type AnswerRequest<Rule> = (request: RecordedRequest, take: TakeRule<Rule>) => HttpReply | undefined;

/** A running scripted server. */
export interface ScriptedHttpServer<Rule> {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** Every request received, in arrival order. */
  readonly requests: RecordedRequest[];
  /** The most requests that were open at once: `all`, and per requested model. */
  readonly peakInFlight: Readonly<Record<string, number>>;
  /** Appends rules to the script. */
  script(...rules: Rule[]): void;
  close(): Promise<void>;
}

/** `retry-after` as a header record, when set. */
export function retryAfterHeader(reply: { retryAfter?: number }): Record<string, string> {
  return reply.retryAfter === undefined ? {} : { "retry-after": String(reply.retryAfter) };
}

function send(res: ServerResponse, reply: HttpReply) {
  if (res.destroyed) return;
  if (reply.sse !== undefined) return sendEvents(res, reply, reply.sse);
  if (reply.stream !== undefined) return sendStream(res, reply, reply.stream);
  res.writeHead(reply.status, { "content-type": "application/json", ...reply.headers });
  res.end(JSON.stringify(reply.payload));
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  if (text === "") return {};
  const parsed: unknown = JSON.parse(text);
  return parsed !== null && typeof parsed === "object" ? (parsed as Record<string, unknown>) : {};
}

/** Starts a scripted server that answers each request with `answer`. */
export async function startScriptedHttp<Rule extends ScriptedRule>(
  answer: AnswerRequest<Rule>,
  rules: Rule[] = [],
): Promise<ScriptedHttpServer<Rule>> {
  const script: { rule: Rule; used: boolean }[] = rules.map((rule) => ({ rule, used: false }));
  const requests: RecordedRequest[] = [];
  const inFlight: Record<string, number> = {};
  const peakInFlight: Record<string, number> = {};
  const track = (keys: readonly string[], res: ServerResponse) => {
    for (const key of keys) {
      inFlight[key] = (inFlight[key] ?? 0) + 1;
      peakInFlight[key] = Math.max(peakInFlight[key] ?? 0, inFlight[key] ?? 0);
    }
    res.once("close", () => {
      for (const key of keys) inFlight[key] = (inFlight[key] ?? 1) - 1;
    });
  };

  const server = createServer(async (req, res) => {
    const [path = "", query = ""] = (req.url ?? "").split("?", 2);
    const body: Record<string, unknown> = await readJson(req).catch(() => ({}));
    const request = { method: req.method ?? "", path, query, headers: req.headers, body };
    requests.push(request);
    track(["all", ...(typeof body.model === "string" ? [body.model] : [])], res);
    let taken: Rule | undefined;
    const reply = answer(request, (holds) => {
      const entry = script.find((e) => (!e.used || e.rule.repeat) && holds(e.rule));
      if (entry === undefined) return undefined;
      entry.used = true;
      taken = entry.rule;
      return entry.rule;
    });
    if (reply === undefined)
      return send(res, { status: 404, payload: { error: { message: `no route ${path}` } } });
    const delayMs = taken?.reply.delayMs;
    if (delayMs) {
      const timer = setTimeout(() => send(res, reply), delayMs);
      res.on("close", () => clearTimeout(timer));
      return;
    }
    send(res, reply);
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    peakInFlight,
    script: (...more) => script.push(...more.map((rule) => ({ rule, used: false }))),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/**
 * The text of the last user message of a chat request body (`messages`): its string content, or its parts'
 * `text` joined (OpenAI parts, Bedrock's Converse blocks); `""` when there is none.
 */
export function lastUserText(body: Record<string, unknown>): string {
  const messages = Array.isArray(body.messages)
    ? (body.messages as { role?: string; content?: unknown }[])
    : [];
  const content = messages.filter((m) => m.role === "user").at(-1)?.content;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return (content as { text?: unknown }[]).map((p) => (typeof p.text === "string" ? p.text : "")).join("");
}
