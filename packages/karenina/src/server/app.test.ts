import { createRoute } from "@hono/zod-openapi";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { z } from "zod";
import { startTestServer, type TestServer } from "./__fixtures__/test-server.js";
import { createServerApp } from "./app.js";
import { jsonContent } from "./core/index.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe("the app's conventions", () => {
  test("GET /api/health answers healthy", async () => {
    const res = await fetch(`${server.url}/api/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "healthy" });
  });

  test("an unknown /api path is a 404 in the one envelope, never a page", async () => {
    const res = await fetch(`${server.url}/api/v2/nothing-here`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      error: { code: "not_found", message: "GET /api/v2/nothing-here not found" },
    });
  });

  test("a body that fails its schema is a 422 naming the field and what was found", async () => {
    const app = createServerApp({ ...server.deps });
    const route = createRoute({
      method: "post",
      path: "/api/v2/echo",
      request: { body: jsonContent(z.object({ replicate_count: z.number() }), "A count") },
      responses: { 200: jsonContent(z.object({ ok: z.boolean() }), "Echoed") },
    });
    app.openapi(route, (c) => c.json({ ok: true }, 200));
    const res = await app.request("/api/v2/echo", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ replicate_count: "two" }),
    });
    expect(res.status).toBe(422);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("invalid_request");
    expect(body.error.message).toBe('body.replicate_count: expected number, found a string "two"');
  });
});
