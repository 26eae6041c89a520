/**
 * The deep agent's model gate: the one way out of its bubblewrap container. An HTTP reverse proxy on the host,
 * listening on a unix socket in a private folder (bound into the container), that forwards every request to
 * one upstream, the model's API, and nowhere else.
 */
import { mkdtemp, rm } from "node:fs/promises";
import {
  type ClientRequest,
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type ServerResponse,
} from "node:http";
import { request as httpsRequest } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { KareninaError } from "../../errors/index.js";

/** Claude Code's model API when no `ANTHROPIC_BASE_URL` is given. */
export const DEFAULT_MODEL_API = "https://api.anthropic.com";
/** Longest unix socket path Linux accepts (sun_path is 108 bytes, its terminating NUL included). */
const MAX_SOCKET_PATH = 107;
/** Headers of one connection, not of the request (RFC 9110 §7.6.1): never forwarded. */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-authenticate",
  "proxy-authorization",
  "proxy-connection",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);

/** The model gate cannot be set up (an upstream that is not an http(s) URL, a socket path too long). */
export class ModelGateError extends KareninaError {
  override readonly name = "ModelGateError";
}

/** A running model gate: bind `socketPath` into the container, `close` it when the session is over. */
export interface ModelGate {
  /** The unix socket it listens on, in a folder only this user can enter. */
  readonly socketPath: string;
  /** The one place it forwards to. */
  readonly upstream: URL;
  /** Stops listening, cuts the connections still open and removes the socket's folder. Idempotent. */
  close(): Promise<void>;
}

/** `upstream` parsed and checked: an http or https URL without credentials, query or fragment. */
export function modelUpstream(upstream: string): URL {
  let url: URL;
  try {
    url = new URL(upstream);
  } catch {
    throw new ModelGateError(
      `the model's base URL ${JSON.stringify(upstream)} is not a URL; set anthropic_base_url to an http(s) URL`,
    );
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ModelGateError(
      `the model's base URL ${JSON.stringify(upstream)} is not http or https; set anthropic_base_url to an http(s) URL`,
    );
  }
  if (url.username !== "" || url.password !== "" || url.search !== "" || url.hash !== "") {
    throw new ModelGateError(
      `the model's base URL ${url.origin}${url.pathname} carries credentials, a query or a fragment, which ` +
        "the deep agent's model gate does not forward; give the key as anthropic_api_key",
    );
  }
  return url;
}

/** The request's headers for the upstream: hop-by-hop ones (and those `Connection` names) out, `Host` its own. */
export function forwardedHeaders(headers: IncomingHttpHeaders, upstream: URL): OutgoingHttpHeaders {
  const named = String(headers.connection ?? "")
    .split(",")
    .map((name) => name.trim().toLowerCase());
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || named.includes(name)) continue;
    out[name] = value;
  }
  out.host = upstream.host;
  return out;
}

/** An error reply in the Anthropic API's shape, so that Claude Code shows its message. */
function refuse(response: ServerResponse, status: number, message: string): void {
  if (response.headersSent) {
    response.destroy(new Error(message));
    return;
  }
  response
    .writeHead(status, { "content-type": "application/json" })
    .end(JSON.stringify({ type: "error", error: { type: "api_error", message } }));
}

/** Forwards one request to `upstream`, streaming the body both ways. */
function forward(upstream: URL, request: IncomingMessage, response: ServerResponse): ClientRequest | null {
  const path = request.url ?? "";
  // Origin-form only ("/v1/messages"): an absolute URL ("http://elsewhere/") would ask a proxy for another host.
  if (!path.startsWith("/")) {
    refuse(response, 400, `karenina's model gate forwards only paths of ${upstream.origin}, not ${path}`);
    return null;
  }
  const send = upstream.protocol === "https:" ? httpsRequest : httpRequest;
  let outgoing: ClientRequest;
  try {
    outgoing = send({
      protocol: upstream.protocol,
      hostname: upstream.hostname.replace(/^\[|\]$/g, ""),
      port: upstream.port === "" ? undefined : Number(upstream.port),
      method: request.method,
      // Joined as text, never resolved as a URL, so that no path can name another host.
      path: `${upstream.pathname.replace(/\/$/, "")}${path}`,
      headers: forwardedHeaders(request.headers, upstream),
    });
  } catch (error) {
    refuse(response, 400, `karenina's model gate cannot forward ${path}: ${(error as Error).message}`);
    return null;
  }
  outgoing.on("response", (reply) => {
    const headers: OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(reply.headers)) {
      if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
    }
    response.writeHead(reply.statusCode ?? 502, reply.statusMessage, headers);
    // Flushed chunk by chunk: Claude Code reads the model's reply as server-sent events.
    reply.pipe(response);
    reply.on("error", (error) => response.destroy(error));
  });
  outgoing.on("error", (error) => {
    refuse(
      response,
      502,
      `karenina's model gate could not reach the model API at ${upstream.origin}: ${error.message}`,
    );
  });
  request.pipe(outgoing);
  // The client went away (or the gate closed): nothing more to ask upstream.
  response.on("close", () => {
    if (!response.writableFinished) outgoing.destroy();
  });
  return outgoing;
}

/**
 * Starts a model gate forwarding to `upstream` (the model's base URL; {@link DEFAULT_MODEL_API} for Claude
 * Code's default): every request's method, path (under the upstream's own path), headers (the API key
 * included; `Host` rewritten to the upstream's, hop-by-hop ones dropped) and body go there and its reply comes
 * back, both streamed. Nothing else is reachable through it: requests that are not a plain path get 400, an
 * unreachable upstream 502 with a message in the Anthropic error shape. It does not follow redirects, and does
 * not use the host's HTTP(S)_PROXY.
 * @throws {ModelGateError} when `upstream` is not an http(s) URL, or the temporary folder's path is too long
 * for a unix socket.
 */
export async function startModelGate(upstream: string = DEFAULT_MODEL_API): Promise<ModelGate> {
  const target = modelUpstream(upstream);
  const dir = await mkdtemp(join(tmpdir(), "karenina-model-gate-"));
  const socketPath = join(dir, "gate.sock");
  if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH) {
    await rm(dir, { recursive: true, force: true });
    throw new ModelGateError(
      `the model gate's socket path ${socketPath} is longer than a unix socket allows; set TMPDIR to a shorter folder`,
    );
  }
  const pending = new Set<ClientRequest>();
  const server = createServer((request, response) => {
    const outgoing = forward(target, request, response);
    if (outgoing === null) return;
    pending.add(outgoing);
    outgoing.on("close", () => pending.delete(outgoing));
  });
  // A CONNECT tunnel would reach any host: refused by closing the connection.
  server.on("connect", (_request, socket) => socket.destroy());
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(socketPath, () => {
        server.off("error", reject);
        resolve();
      });
    });
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  let closed: Promise<void> | null = null;
  return {
    socketPath,
    upstream: target,
    close() {
      closed ??= (async () => {
        try {
          const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
          server.closeAllConnections();
          for (const outgoing of pending) outgoing.destroy();
          await stopped;
        } finally {
          await rm(dir, { recursive: true, force: true });
        }
      })();
      return closed;
    },
  };
}
