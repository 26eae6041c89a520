/**
 * The plumbing shared by the fake provider servers: real HTTP on 127.0.0.1 at a random port, a script of
 * hand-written replies tried in order, and every request recorded.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** Which requests a rule answers. Every given criterion must hold; a rule without criteria matches any request. */
export interface ScriptMatch {
  /** Exact model of the request. */
  model?: string;
  /** A substring of the last user message. */
  lastUserIncludes?: string;
}

/** Token counts reported in the reply. */
export interface ScriptedTokens {
  input: number;
  output: number;
}

/** What a fake server sends back. Exactly one of `text`, `json`, `status`. */
export type ScriptedReply = (
  | { text: string; usage?: ScriptedTokens }
  | { json: unknown; usage?: ScriptedTokens }
  | { status: number; message?: string; retryAfter?: number }
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

/** A running fake server. */
export interface ScriptedServer {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** Every request received, in arrival order. */
  readonly requests: RecordedRequest[];
  /** Appends rules to the script. */
  script(...rules: ScriptRule[]): void;
  close(): Promise<void>;
}

/** What a provider's wire format contributes: routing, request reading and reply building. */
export interface WireFormat {
  /** The model a request asks for, or undefined when the path is not an endpoint of this API. */
  route(path: string, body: Record<string, unknown>): { model: string } | undefined;
  lastUserText(body: Record<string, unknown>): string;
  /** The HTTP reply for a scripted reply. */
  reply(reply: ScriptedReply, model: string, body: Record<string, unknown>): HttpReply;
  /** The reply for a request that no rule answers. */
  unscripted(model: string, lastUser: string): HttpReply;
}

export interface HttpReply {
  status: number;
  headers?: Record<string, string>;
  payload: unknown;
}

/** `retry-after` as a header record, when set. */
export function retryAfterHeader(reply: { retryAfter?: number }): Record<string, string> {
  return reply.retryAfter === undefined ? {} : { "retry-after": String(reply.retryAfter) };
}

function matches(match: ScriptMatch | undefined, model: string, lastUser: string): boolean {
  if (match?.model !== undefined && model !== match.model) return false;
  if (match?.lastUserIncludes !== undefined && !lastUser.includes(match.lastUserIncludes)) return false;
  return true;
}

function send(res: ServerResponse, reply: HttpReply) {
  if (res.destroyed) return;
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

/** Starts a fake server speaking `wire`. Rules are tried in order; the first unused (or `repeat`) match answers. */
export async function startScriptedServer(
  wire: WireFormat,
  rules: ScriptRule[] = [],
): Promise<ScriptedServer> {
  const script: { rule: ScriptRule; used: boolean }[] = rules.map((rule) => ({ rule, used: false }));
  const requests: RecordedRequest[] = [];

  const server = createServer(async (req, res) => {
    const path = (req.url ?? "").split("?")[0] ?? "";
    const body: Record<string, unknown> = await readJson(req).catch(() => ({}));
    requests.push({ method: req.method ?? "", path, headers: req.headers, body });
    const route = req.method === "POST" ? wire.route(path, body) : undefined;
    if (route === undefined)
      return send(res, { status: 404, payload: { error: { message: `no route ${path}` } } });
    const lastUser = wire.lastUserText(body);
    const entry = script.find(
      (e) => (!e.used || e.rule.repeat) && matches(e.rule.match, route.model, lastUser),
    );
    if (entry === undefined) return send(res, wire.unscripted(route.model, lastUser));
    entry.used = true;
    const reply = wire.reply(entry.rule.reply, route.model, body);
    const { delayMs } = entry.rule.reply;
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
    script: (...more) => script.push(...more.map((rule) => ({ rule, used: false }))),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
