import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { afterEach, describe, expect, test } from "vitest";
import { z } from "zod";
import { tempDir } from "../../storage/__fixtures__/databases.js";
import { mcpHttpServerPerTest } from "../../test-support/mcp-http-server.js";
import { callApi, type ErrorBody, type Page } from "../__fixtures__/api-calls.js";
import { startTestServer, type TestServer } from "../__fixtures__/test-server.js";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});
const startMcp = mcpHttpServerPerTest();

/** The test's server at `path`, with `body` as JSON when given; the answer read as `T`. */
const call = <T = ErrorBody>(method: string, path: string, body?: unknown) =>
  callApi<T>(server?.url ?? "", method, path, body);

/** A preset as the preset routes answer with it. */
interface Preset {
  readonly id: string;
  readonly created_at: string;
  readonly config: { replicate_count: number };
}

const model = (id: string) => ({
  id,
  model_provider: "openai",
  model_name: "gpt-4.1-mini",
  interface: "openai_endpoint",
  endpoint_base_url: "http://127.0.0.1:9/v1",
  endpoint_api_key: "sk-secret-value",
});
const config = {
  answering_models: [model("a")],
  parsing_models: [model("p")],
  replicate_count: 2,
  abstention_enabled: true,
  evaluation_mode: "template_and_rubric",
  rubric_enabled: true,
};

describe("verification preset routes", () => {
  test("create → list with summary → get → update → delete; secrets masked on disk; 409, 404, 422", async () => {
    const workDir = await tempDir();
    server = await startTestServer({ workDir });
    expect((await call("GET", "/api/v2/presets-status")).json).toEqual({
      directory_exists: false,
      directory_path: join(workDir, "presets"),
      preset_count: 0,
    });
    const created = await call<Preset>("POST", "/api/v2/presets", {
      name: "Local Qwen",
      description: "d",
      config,
    });
    expect(created.status).toBe(201);
    const { id } = created.json;
    expect(created.json).toMatchObject({ name: "Local Qwen", description: "d" });
    const onDisk = await readFile(join(workDir, "presets", "local-qwen.json"), "utf8");
    expect(onDisk).not.toContain("sk-secret-value");

    expect((await call("POST", "/api/v2/presets", { name: "local qwen", config })).json.error.code).toBe(
      "conflict",
    );
    const bad = await call("POST", "/api/v2/presets", {
      name: "Bad",
      config: { ...config, replicate_count: "two" },
    });
    expect(bad.status).toBe(422);
    expect(bad.json.error.message).toContain("body.config.replicate_count");

    await mkdir(join(workDir, "presets"), { recursive: true });
    await writeFile(join(workDir, "presets", "broken.json"), "{ not json");
    const list = await call<Page<unknown> & { warnings: string[] }>("GET", "/api/v2/presets");
    expect(list.json.total).toBe(1);
    expect(list.json.items[0]).toMatchObject({
      id,
      name: "Local Qwen",
      summary: {
        answering_model_count: 1,
        parsing_model_count: 1,
        total_model_count: 2,
        replicate_count: 2,
        enabled_features: ["rubric", "abstention"],
        interfaces: ["openai_endpoint"],
      },
    });
    expect(list.json.warnings).toHaveLength(1);
    expect(list.json.warnings[0]).toMatch(/^broken\.json skipped: /);

    expect((await call<Preset>("GET", `/api/v2/presets/${id}`)).json.config.replicate_count).toBe(2);
    const updated = await call<Preset>("PUT", `/api/v2/presets/${id}`, {
      description: "new",
      config: { ...config, replicate_count: 3 },
    });
    expect(updated.status).toBe(200);
    expect(updated.json).toMatchObject({
      id,
      name: "Local Qwen",
      description: "new",
      created_at: created.json.created_at,
    });
    expect(updated.json.config.replicate_count).toBe(3);
    expect((await call("PUT", `/api/v2/presets/${id}`, {})).status).toBe(422);
    expect((await call("PUT", "/api/v2/presets/nope", { description: "x" })).status).toBe(404);
    expect((await call("DELETE", `/api/v2/presets/${id}`)).status).toBe(204);
    expect((await call("GET", `/api/v2/presets/${id}`)).status).toBe(404);
    expect((await call("DELETE", `/api/v2/presets/${id}`)).status).toBe(404);
  });
});

describe("MCP preset and validation routes", () => {
  test("put, list, delete; a hostile name stays a file of the directory", async () => {
    const workDir = await tempDir();
    server = await startTestServer({ workDir });
    const name = "../../Evil Name";
    const put = await call("PUT", `/api/v2/mcp/presets/${encodeURIComponent(name)}`, {
      name,
      url: "http://127.0.0.1:1/mcp",
      tools: ["search"],
    });
    expect(put.status).toBe(200);
    expect(await readdir(join(workDir, "mcp_presets"))).toEqual(["______evil_name.json"]);
    expect((await call("GET", "/api/v2/mcp/presets")).json).toEqual({
      presets: { [name]: { name, url: "http://127.0.0.1:1/mcp", tools: ["search"] } },
      warnings: [],
    });
    const badUrl = await call("PUT", "/api/v2/mcp/presets/x", { name: "x", url: "file:///etc/passwd" });
    expect(badUrl.status).toBe(422);
    expect(badUrl.json.error.message).toContain("body.url");
    expect((await call("PUT", "/api/v2/mcp/presets/x", { name: "y", url: "http://a/mcp" })).status).toBe(400);
    expect((await call("DELETE", `/api/v2/mcp/presets/${encodeURIComponent(name)}`)).status).toBe(204);
    expect((await call("DELETE", `/api/v2/mcp/presets/${encodeURIComponent(name)}`)).status).toBe(404);
  });

  test("validation lists a real MCP server's tools; an unreachable one is 502 naming it", async () => {
    server = await startTestServer();
    const url = await startMcp(() => {
      const mcp = new McpServer({ name: "t", version: "1" });
      mcp.registerTool(
        "lookup",
        { description: "Looks things up", inputSchema: { q: z.string() } },
        async () => ({
          content: [{ type: "text", text: "ok" }],
        }),
      );
      return mcp;
    });
    const ok = await call("POST", "/api/v2/mcp/servers/validation", { server_name: "bio", server_url: url });
    expect(ok).toEqual({
      status: 200,
      json: { tools: [{ name: "lookup", description: "Looks things up" }] },
    });
    const down = await call("POST", "/api/v2/mcp/servers/validation", {
      server_name: "down",
      server_url: "http://127.0.0.1:1/mcp",
    });
    expect(down.status).toBe(502);
    expect(down.json.error.code).toBe("mcp_unreachable");
    expect(down.json.error.message).toMatch(/^MCP server "down" at http:\/\/127\.0\.0\.1:1\/mcp: /);
  });
});
