/**
 * Acceptance scenarios A1 (health), A13 (database API) and A14 (presets API) of spec 07 §4 against the real
 * server on 127.0.0.1 with a real SQLite file. Translated to our API: no CSRF token route (spec 07 §2.5: the
 * same-origin rule replaces it), named connections instead of `storage_url`, one error envelope, and A14's
 * stale parts (model keys on presets, `/api/v2/rubrics/generation`) dropped as the spec says.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { json, scenarioClient } from "../__fixtures__/scenario-fixtures.js";
import { startTestServer, type TestServer } from "../__fixtures__/test-server.js";
import { drugCheckpoint } from "../__fixtures__/verification-jobs.js";

let server: TestServer;
let api: ReturnType<typeof scenarioClient>;
/** A client that sends no token, as a page of the server's own origin (or curl) does on a loopback server. */
let anonymous: (
  method: string,
  path: string,
  body?: unknown,
  headers?: Record<string, string>,
) => Promise<Response>;

const model = (id: string) => ({
  id,
  model_provider: "openai",
  model_name: "gpt-4.1-mini",
  interface: "openai_endpoint",
  endpoint_base_url: "http://127.0.0.1:9/v1",
  endpoint_api_key: "sk-scenario",
});

beforeAll(async () => {
  server = await startTestServer();
  api = scenarioClient(server.url, server.token);
  anonymous = (method, path, body, headers = {}) =>
    fetch(`${server.url}${path}`, {
      method,
      headers: { ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
});
afterAll(async () => {
  await server.close();
});

describe("A1 health-check", () => {
  test("A1 health-check: /api/health is healthy", async () => {
    const res = await anonymous("GET", "/api/health");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "healthy" });
  });

  test("A1 health-check: no CSRF token route; a cross-site mutating request is refused by the same-origin rule", async () => {
    const csrf = await anonymous("GET", "/api/v2/auth/csrf-token");
    expect(csrf.status).toBe(404);
    expect(await csrf.json()).toEqual({
      error: { code: "not_found", message: "GET /api/v2/auth/csrf-token not found" },
    });
    const body = {
      name: "from-evil",
      config: { answering_models: [model("a")], parsing_models: [model("p")] },
    };
    const crossSite = await anonymous("POST", "/api/v2/presets", body, { origin: "https://evil.example" });
    expect(crossSite.status).toBe(403);
    expect((await json(crossSite)).error.code).toBe("forbidden_origin");
    const fetchSite = await anonymous("POST", "/api/v2/presets", body, { "sec-fetch-site": "cross-site" });
    expect(fetchSite.status).toBe(403);
    const sameOrigin = await anonymous(
      "POST",
      "/api/v2/presets",
      { ...body, name: "same-origin" },
      {
        origin: server.url,
        "sec-fetch-site": "same-origin",
      },
    );
    expect(sameOrigin.status).toBe(201);
  });

  test("A1 health-check: presets are listed", async () => {
    const res = await anonymous("GET", "/api/v2/presets");
    expect(res.status).toBe(200);
    const list = await json(res);
    expect(list.items.map((p: { name: string }) => p.name)).toEqual(["same-origin"]);
  });
});

describe("A13 database-api", () => {
  test("A13 database-api: a new database has no benchmarks and no runs", async () => {
    expect((await api.call("GET", "/api/v2/benchmarks")).body).toMatchObject({ items: [], total: 0 });
    expect((await api.call("GET", "/api/v2/verification-runs")).body).toMatchObject({ items: [], total: 0 });
  });

  test("A13 database-api: init a database file and connect to it by name", async () => {
    const created = await api.call("POST", "/api/v2/databases", { name: "a13" });
    expect(created.status).toBe(201);
    expect(created.body.name).toBe("a13.db");
    const connected = await api.call("POST", "/api/v2/databases/connections", {
      name: "a13",
      sqlite_file: "a13.db",
    });
    expect(connected.status).toBe(201);
    expect(connected.body).toMatchObject({
      connection: { name: "a13", dialect: "sqlite" },
      benchmark_count: 0,
    });
  });

  test("A13 database-api: create, list, load, save, delete a benchmark", async () => {
    const created = await api.call("POST", "/api/v2/benchmarks", { name: "a13-bench", description: "d" });
    expect(created.status).toBe(201);
    expect(created.body.name).toBe("a13-bench");
    const exists = await api.call("POST", "/api/v2/benchmarks", { name: "a13-bench" });
    expect(exists.status).toBe(409);

    const saved = await api.call("PUT", "/api/v2/benchmarks/a13-bench", {
      checkpoint: drugCheckpoint(2, "a13-bench"),
    });
    expect(saved.status).toBe(200);
    expect(saved.body.question_count).toBe(2);
    const list = await api.call("GET", "/api/v2/benchmarks");
    expect(list.body.items).toEqual([expect.objectContaining({ name: "a13-bench" })]);
    const loaded = await api.call("GET", "/api/v2/benchmarks/a13-bench");
    expect(loaded.status).toBe(200);
    expect(loaded.body.checkpoint.dataFeedElement).toHaveLength(2);

    // save after deleting a question removes it (spec 07 §2.5)
    const saveOne = await api.call("PUT", "/api/v2/benchmarks/a13-bench", {
      checkpoint: drugCheckpoint(1, "a13-bench"),
    });
    expect(saveOne.body.question_count).toBe(1);
    expect(
      (await api.call("GET", "/api/v2/benchmarks/a13-bench")).body.checkpoint.dataFeedElement,
    ).toHaveLength(1);

    const deleted = await api.call("DELETE", "/api/v2/benchmarks/a13-bench");
    expect(deleted.status).toBe(200);
    expect((await api.call("GET", "/api/v2/benchmarks/a13-bench")).status).toBe(404);
  });

  test("A13 database-api: an unknown benchmark, a non-existent database, an invalid database name fail cleanly", async () => {
    expect(await api.call("GET", "/api/v2/benchmarks/never")).toMatchObject({
      status: 404,
      body: { error: { code: "not_found" } },
    });
    const unknownDb = await api.call("GET", "/api/v2/benchmarks?db=never");
    expect(unknownDb.status).toBe(404);
    const missing = await api.call("POST", "/api/v2/databases/connections", {
      name: "gone",
      sqlite_file: "gone.db",
      create_if_missing: false,
    });
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe("database_unavailable");
    const invalid = await api.call("POST", "/api/v2/databases/connections", {
      name: "bad",
      sqlite_file: "../x.db",
    });
    expect(invalid.status).toBe(422);
  });
});

describe("A14 presets-api", () => {
  test("A14 presets-api: save, list with the summary structure, load one", async () => {
    const config = { answering_models: [model("a")], parsing_models: [model("p")], replicate_count: 3 };
    const created = await api.call("POST", "/api/v2/presets", {
      name: "A14 preset",
      description: "d",
      config,
    });
    expect(created.status).toBe(201);
    const list = await api.call("GET", "/api/v2/presets");
    const listed = list.body.items.find((p: { name: string }) => p.name === "A14 preset");
    expect(listed).toMatchObject({
      id: created.body.id,
      description: "d",
      summary: {
        answering_model_count: 1,
        parsing_model_count: 1,
        total_model_count: 2,
        replicate_count: 3,
      },
    });
    const one = await api.call("GET", `/api/v2/presets/${created.body.id}`);
    expect(one.status).toBe(200);
    expect(one.body.config.replicate_count).toBe(3);
    expect((await api.call("GET", "/api/v2/presets/no-such-preset")).status).toBe(404);
  });

  test("A14 presets-api: a default exists (the config defaults' fallback)", async () => {
    const defaults = await api.call("GET", "/api/v2/config/defaults");
    expect(defaults.status).toBe(200);
    expect(defaults.body).toMatchObject({
      default_interface: "langchain",
      default_provider: "anthropic",
      default_model: "claude-haiku-4-5",
    });
  });

  test("A14 presets-api: template generation with missing parameters → 422 naming the field", async () => {
    const res = await api.call("POST", "/api/v2/templates/generation", {});
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe("invalid_request");
    expect(res.body.error.message).toMatch(/^body\./);
  });
});
