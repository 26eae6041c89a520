/**
 * The model gate with real sockets: an upstream HTTP server on 127.0.0.1 (hand-written replies) and requests sent
 * to the gate's unix socket.
 */
import { existsSync, statSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, request, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { ModelGateError, startModelGate } from "./index.js";

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A server on 127.0.0.1 that records what it receives and answers with `reply`. */
async function upstreamServer(
  reply: (response: ServerResponse, seen: Seen) => void = (response) =>
    response.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}'),
) {
  const seen: Seen[] = [];
  const server = createServer((req, response) => {
    let body = "";
    req.setEncoding("utf8").on("data", (chunk: string) => {
      body += chunk;
    });
    req.on("end", () => {
      const entry = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body };
      seen.push(entry);
      reply(response, entry);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { seen, port: (server.address() as AddressInfo).port };
}

/** Sends one request to the gate's socket; the status, headers and the response as a stream of text chunks. */
function throughGate(
  socketPath: string,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: string },
  onChunk: (chunk: string) => void = () => {},
) {
  return new Promise<{ status: number; headers: IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const req = request({
      socketPath,
      method: options.method ?? "GET",
      path: options.path,
      headers: options.headers,
    });
    req.on("response", (response) => {
      let body = "";
      response.setEncoding("utf8").on("data", (chunk: string) => {
        body += chunk;
        onChunk(chunk);
      });
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
      );
    });
    req.on("error", reject);
    req.end(options.body);
  });
}

describe("the model gate", () => {
  test("forwards method, path (under the upstream's path), headers and body to its one upstream, Host rewritten", async () => {
    const upstream = await upstreamServer();
    const gate = await startModelGate(`http://127.0.0.1:${upstream.port}/anthropic`);
    try {
      const reply = await throughGate(gate.socketPath, {
        method: "POST",
        path: "/v1/messages?beta=true",
        headers: {
          "x-api-key": "sk-ant-hand-written",
          host: "attacker.example",
          "content-type": "application/json",
          connection: "keep-alive, x-hop",
          "x-hop": "dropped",
        },
        body: '{"model":"claude-sonnet-4-5"}',
      });
      expect(reply).toMatchObject({ status: 200, body: '{"ok":true}' });
      expect(upstream.seen).toHaveLength(1);
      const [seen] = upstream.seen;
      expect(seen).toMatchObject({
        method: "POST",
        url: "/anthropic/v1/messages?beta=true",
        body: '{"model":"claude-sonnet-4-5"}',
      });
      expect(seen?.headers["x-api-key"]).toBe("sk-ant-hand-written");
      expect(seen?.headers.host).toBe(`127.0.0.1:${upstream.port}`);
      expect(seen?.headers["x-hop"]).toBeUndefined();
    } finally {
      await gate.close();
    }
  });

  test("no request reaches another host: an absolute URL is refused, a path naming a host stays a path upstream", async () => {
    const upstream = await upstreamServer();
    const other = await upstreamServer();
    const gate = await startModelGate(`http://127.0.0.1:${upstream.port}`);
    try {
      const absolute = await throughGate(gate.socketPath, {
        path: `http://127.0.0.1:${other.port}/v1/messages`,
      });
      expect(absolute.status).toBe(400);
      expect(absolute.body).toContain("forwards only paths of");
      const schemeless = await throughGate(gate.socketPath, { path: `//127.0.0.1:${other.port}/x` });
      expect(schemeless.status).toBe(200);
      expect(upstream.seen.map((s) => s.url)).toEqual([`//127.0.0.1:${other.port}/x`]);
      expect(other.seen).toEqual([]);
    } finally {
      await gate.close();
    }
  });

  test("streams a chunked server-sent-events reply as it comes (the upstream waits for the first event to arrive)", async () => {
    let firstArrived: () => void = () => {};
    const arrived = new Promise<void>((resolve) => {
      firstArrived = resolve;
    });
    const upstream = await upstreamServer((response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write('event: message_start\ndata: {"type":"message_start"}\n\n');
      // Sent only once the client has the first event: a gate that buffered the reply would never finish.
      void arrived.then(() => response.end('event: message_stop\ndata: {"type":"message_stop"}\n\n'));
    });
    const gate = await startModelGate(`http://127.0.0.1:${upstream.port}`);
    try {
      const reply = await throughGate(gate.socketPath, { method: "POST", path: "/v1/messages" }, (chunk) => {
        if (chunk.includes("message_start")) firstArrived();
      });
      expect(reply.status).toBe(200);
      expect(reply.headers["content-type"]).toBe("text/event-stream");
      expect(reply.headers["transfer-encoding"]).toBe("chunked");
      expect(reply.body).toBe(
        'event: message_start\ndata: {"type":"message_start"}\n\nevent: message_stop\ndata: {"type":"message_stop"}\n\n',
      );
    } finally {
      await gate.close();
    }
  }, 15_000);

  test("answers 502 with a clear Anthropic-shaped error when the upstream is down", async () => {
    const upstream = await upstreamServer();
    const server = servers.pop() as Server;
    await new Promise((resolve) => server.close(resolve));
    const gate = await startModelGate(`http://127.0.0.1:${upstream.port}`);
    try {
      const reply = await throughGate(gate.socketPath, { method: "POST", path: "/v1/messages" });
      expect(reply.status).toBe(502);
      expect(JSON.parse(reply.body)).toEqual({
        type: "error",
        error: {
          type: "api_error",
          message: expect.stringMatching(
            new RegExp(
              `^karenina's model gate could not reach the model API at http://127\\.0\\.0\\.1:${upstream.port}: .*ECONNREFUSED`,
            ),
          ),
        },
      });
    } finally {
      await gate.close();
    }
  });

  test("close stops it and removes its socket's folder; the folder is private", async () => {
    const upstream = await upstreamServer();
    const gate = await startModelGate(`http://127.0.0.1:${upstream.port}`);
    expect(statSync(dirname(gate.socketPath)).mode & 0o777).toBe(0o700);
    expect(statSync(gate.socketPath).isSocket()).toBe(true);
    await gate.close();
    await gate.close();
    expect(existsSync(dirname(gate.socketPath))).toBe(false);
    await expect(throughGate(gate.socketPath, { path: "/v1/messages" })).rejects.toThrow(/ENOENT/);
  });

  test.each([
    ["ftp://example.com", "is not http or https"],
    ["not a url", "is not a URL"],
    ["https://user:secret@example.com", "carries credentials, a query or a fragment"],
  ])("refuses the upstream %s", async (upstream, message) => {
    await expect(startModelGate(upstream)).rejects.toThrow(ModelGateError);
    await expect(startModelGate(upstream)).rejects.toThrow(message);
  });
});
