import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startTestServer, type TestServer } from "./__fixtures__/test-server.js";
import { buildServer, OPENAPI_PATH } from "./app.js";

interface OpenApiDoc {
  paths: Record<string, Record<string, unknown>>;
}

/** `METHOD /path/{param}` of every operation in the document. */
function documentedRoutes(doc: OpenApiDoc): string[] {
  return Object.entries(doc.paths).flatMap(([path, operations]) =>
    Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
  );
}

/** Hono's `:param` as OpenAPI's `{param}`. */
const openApiPath = (path: string) => path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, "{$1}");

describe("the OpenAPI document", () => {
  let server: TestServer;
  let doc: OpenApiDoc;
  beforeAll(async () => {
    server = await startTestServer();
    const res = await fetch(`${server.url}${OPENAPI_PATH}`);
    expect(res.status).toBe(200);
    doc = (await res.json()) as OpenApiDoc;
  });
  afterAll(() => server.close());

  test("documents every /api route the app answers, and nothing it does not", () => {
    const { app } = buildServer({ ...server.deps });
    const answered = new Set(
      app.routes
        .filter(
          (route) => route.method !== "ALL" && route.path.startsWith("/api/") && route.path !== OPENAPI_PATH,
        )
        .map((route) => `${route.method} ${openApiPath(route.path)}`),
    );
    expect(new Set(documentedRoutes(doc))).toEqual(answered);
  });

  test("registers every route once (no group mounted twice)", () => {
    const { app } = buildServer({ ...server.deps });
    const registered = app.openAPIRegistry.definitions.flatMap((definition) =>
      definition.type === "route"
        ? [`${definition.route.method.toUpperCase()} ${definition.route.path}`]
        : [],
    );
    const twice = registered.filter((route, index) => registered.indexOf(route) !== index);
    expect(twice).toEqual([]);
    expect(registered.length).toBeGreaterThan(1);
  });

  test("declares the access token scheme", () => {
    const components = (doc as unknown as { components: { securitySchemes: Record<string, unknown> } })
      .components;
    expect(components.securitySchemes.accessToken).toEqual({
      type: "http",
      scheme: "bearer",
      description: "The token `karenina serve` prints at start",
    });
  });
});
