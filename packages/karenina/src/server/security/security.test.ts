import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startTestServer, type TestServer } from "../__fixtures__/test-server.js";

/** A raw HTTP request, so the test controls every header (fetch would not send a forged Host). */
function rawRequest(
  url: string,
  path: string,
  headers: Record<string, string>,
  method = "GET",
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(new URL(path, url), { method, headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        body += chunk;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

/** The status a WebSocket upgrade request gets (101 when it switches protocols). */
function rawUpgrade(url: string, path: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(new URL(path, url), {
      headers: {
        connection: "Upgrade",
        upgrade: "websocket",
        "sec-websocket-version": "13",
        "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==",
        ...headers,
      },
    });
    req.on("response", (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("upgrade", (res, socket) => {
      socket.destroy();
      resolve(res.statusCode ?? 0);
    });
    req.on("error", reject);
    req.end();
  });
}

const errorCode = async (res: Response) => ((await res.json()) as { error: { code: string } }).error.code;

describe("a server bound beyond loopback: the token on every /api and /ws route", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ requireToken: true });
  });
  afterAll(() => server.close());

  test("without the token: 401 in the envelope, saying how to send it", async () => {
    const res = await fetch(`${server.url}/api/health`);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({
      error: {
        code: "unauthorized",
        message:
          'GET /api/health needs the access token (none was sent): send "Authorization: Bearer <token>" with the token `karenina serve` printed at start',
      },
    });
  });

  test("a wrong token: 401 saying the one sent is wrong", async () => {
    const res = await fetch(`${server.url}/api/health`, { headers: { authorization: "Bearer nope" } });
    expect(res.status).toBe(401);
    const body = (await res.json()) as { error: { message: string } };
    expect(body.error.message).toContain("(the one sent is wrong)");
  });

  test("the bearer token opens /api", async () => {
    const res = await fetch(`${server.url}/api/health`, {
      headers: { authorization: `Bearer ${server.token}` },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "healthy" });
  });

  test("?token= opens a GET (WebSocket, EventSource, page load) but never a mutation", async () => {
    const get = await fetch(`${server.url}/api/health?token=${server.token}`);
    expect(get.status).toBe(200);
    const post = await fetch(`${server.url}/api/v2/presets?token=${server.token}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(post.status).toBe(401);
  });

  test("the OpenAPI document and unknown /api paths are guarded too", async () => {
    expect((await fetch(`${server.url}/api/openapi.json`)).status).toBe(401);
    expect((await fetch(`${server.url}/api/v2/nothing`)).status).toBe(401);
  });

  test("/ws routes need the token", async () => {
    const res = await fetch(`${server.url}/ws/verification-progress/x`);
    expect(res.status).toBe(401);
  });

  test("an encoded path (/%61pi/health) is judged as the router sees it: still 401", async () => {
    const res = await rawRequest(server.url, "/%61pi/health", {});
    expect(res.status).toBe(401);
  });

  test("the page loads without the token but does not carry it", async () => {
    const res = await fetch(`${server.url}/`);
    expect(res.status).toBe(200);
    expect(await res.text()).not.toContain(server.token);
  });
});

describe("a loopback server: no token, but only for this machine's names (DNS rebinding)", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  test("127.0.0.1 and localhost are answered without a token", async () => {
    const port = new URL(server.url).port;
    expect((await rawRequest(server.url, "/api/health", { host: `127.0.0.1:${port}` })).status).toBe(200);
    expect((await rawRequest(server.url, "/api/health", { host: `localhost:${port}` })).status).toBe(200);
  });

  test("a foreign Host (a rebinding page) is refused with 403, /api and pages alike", async () => {
    const port = new URL(server.url).port;
    const api = await rawRequest(server.url, "/api/health", { host: `attacker.example:${port}` });
    expect(api.status).toBe(403);
    expect(JSON.parse(api.body)).toEqual({
      error: {
        code: "forbidden_host",
        message:
          'this server answers only to localhost, 127.0.0.1 and [::1], not to Host "attacker.example"; open it as http://127.0.0.1:<port>/, or start it with --host to serve other names (the token is then required)',
      },
    });
    expect((await rawRequest(server.url, "/", { host: `attacker.example:${port}` })).status).toBe(403);
  });
});

describe("the same-origin check on mutating browser requests", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  // POST to an unknown path: past the guard it is a 404, so the status says whether the guard let it through.
  const post = (headers: Record<string, string>) =>
    fetch(`${server.url}/api/v2/no-such-route`, { method: "POST", headers, body: "{}" });

  test("a foreign Origin is refused with 403 forbidden_origin", async () => {
    const res = await post({ origin: "http://attacker.example" });
    expect(res.status).toBe(403);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("forbidden_origin");
    expect(body.error.message).toContain('Origin "http://attacker.example"');
  });

  test("Sec-Fetch-Site: cross-site without Origin is refused", async () => {
    const res = await post({ "sec-fetch-site": "cross-site" });
    expect(res.status).toBe(403);
    expect(await errorCode(res)).toBe("forbidden_origin");
  });

  test("a same-site (other port) page is refused", async () => {
    const res = await post({ origin: "http://127.0.0.1:1", "sec-fetch-site": "same-site" });
    expect(res.status).toBe(403);
  });

  test("the server's own origin passes", async () => {
    const res = await post({ origin: server.url, "sec-fetch-site": "same-origin" });
    expect(res.status).toBe(404);
  });

  test("a client sending neither header (not a browser) passes", async () => {
    expect((await post({})).status).toBe(404);
  });

  test("a client with the bearer token is exempt", async () => {
    const res = await post({ origin: "http://attacker.example", authorization: `Bearer ${server.token}` });
    expect(res.status).toBe(404);
  });

  test("a GET from a foreign page is not refused (it changes nothing, and without CORS it cannot read the answer)", async () => {
    const res = await fetch(`${server.url}/api/health`, { headers: { origin: "http://attacker.example" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
  });

  test("a cross-site WebSocket upgrade is refused; the server's own page may upgrade", async () => {
    const port = new URL(server.url).port;
    const foreign = await rawUpgrade(server.url, "/ws/no-such-socket", { origin: "http://attacker.example" });
    expect(foreign).toBe(403);
    // Past the guard: no such socket route, so 404 (a real route would switch protocols).
    const own = await rawUpgrade(server.url, "/ws/no-such-socket", { origin: `http://127.0.0.1:${port}` });
    expect(own).toBe(404);
  });

  test("a WebSocket upgrade with a foreign Host is refused (DNS rebinding)", async () => {
    const port = new URL(server.url).port;
    const status = await rawUpgrade(server.url, "/ws/no-such-socket", {
      host: `attacker.example:${port}`,
      origin: `http://attacker.example:${port}`,
    });
    expect(status).toBe(403);
  });
});

describe("CORS", () => {
  test("off by default: a preflight gets no Access-Control-Allow-Origin", async () => {
    const server = await startTestServer();
    try {
      const res = await fetch(`${server.url}/api/health`, {
        method: "OPTIONS",
        headers: { origin: "http://localhost:5173", "access-control-request-method": "PUT" },
      });
      expect(res.headers.get("access-control-allow-origin")).toBeNull();
    } finally {
      await server.close();
    }
  });

  test("a configured origin gets CORS and passes the same-origin check; another does not", async () => {
    const server = await startTestServer({ allowedOrigins: ["http://localhost:5173/"] });
    try {
      const preflight = await fetch(`${server.url}/api/v2/no-such-route`, {
        method: "OPTIONS",
        headers: { origin: "http://localhost:5173", "access-control-request-method": "POST" },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get("access-control-allow-origin")).toBe("http://localhost:5173");
      const allowed = await fetch(`${server.url}/api/v2/no-such-route`, {
        method: "POST",
        headers: { origin: "http://localhost:5173", "sec-fetch-site": "same-site" },
      });
      expect(allowed.status).toBe(404);
      const other = await fetch(`${server.url}/api/v2/no-such-route`, {
        method: "POST",
        headers: { origin: "http://localhost:5174" },
      });
      expect(other.status).toBe(403);
      expect(other.headers.get("access-control-allow-origin")).toBeNull();
    } finally {
      await server.close();
    }
  });
});

describe("request body limits", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ maxBodyBytes: 1024 });
  });
  afterAll(() => server.close());

  test("a body over the limit by Content-Length: 413 in the envelope", async () => {
    const res = await fetch(`${server.url}/api/v2/presets`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "x".repeat(2000) }),
    });
    expect(res.status).toBe(413);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("payload_too_large");
    expect(body.error.message).toMatch(/^the request body is over 0 MiB/);
  });

  test("a chunked body (no Content-Length) over the limit: 413 while reading", async () => {
    const chunks = [new TextEncoder().encode('{"a":"'), new Uint8Array(4096).fill(97)];
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(chunk);
        controller.close();
      },
    });
    const res = await fetch(`${server.url}/api/v2/presets`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(await errorCode(res)).toBe("payload_too_large");
  });

  test("a body under the limit reaches the route", async () => {
    const res = await fetch(`${server.url}/api/v2/no-such-route`, { method: "POST", body: "{}" });
    expect(res.status).toBe(404);
  });
});
