import { lstat, readFile, stat, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { authHeaders, startTestServer, type TestServer } from "../__fixtures__/test-server.js";

const ENV_TEXT = "# keys\nOPENAI_API_KEY=sk-test-abcdefgh12345678\nDB_PATH=/data/dbs\n";

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
  await writeFile(join(server.deps.workDir, ".env"), ENV_TEXT, { mode: 0o600 });
});
afterEach(() => server.close());

const envPath = () => join(server.deps.workDir, ".env");
const mode = async (file: string) => (await stat(file)).mode & 0o777;

function send(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  return fetch(`${server.url}${path}`, {
    method,
    headers: { "content-type": "application/json", ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

describe("environment variables", () => {
  test("GET lists .env with secrets masked but for their last 4 characters", async () => {
    const res = await fetch(`${server.url}/api/v2/config/env-vars`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ OPENAI_API_KEY: "********************5678", DB_PATH: "/data/dbs" });
  });

  test("the unmasked listing needs the token even on loopback", async () => {
    const without = await fetch(`${server.url}/api/v2/config/env-vars/unmasked`);
    expect(without.status).toBe(401);
    expect(((await without.json()) as { error: { code: string } }).error.code).toBe("unauthorized");
    const withToken = await fetch(`${server.url}/api/v2/config/env-vars/unmasked`, {
      headers: authHeaders(server.token),
    });
    expect(withToken.status).toBe(200);
    expect(await withToken.json()).toEqual({
      OPENAI_API_KEY: "sk-test-abcdefgh12345678",
      DB_PATH: "/data/dbs",
    });
  });

  test("the raw .env needs the token even on loopback", async () => {
    expect((await fetch(`${server.url}/api/v2/config/env-file`)).status).toBe(401);
    const res = await fetch(`${server.url}/api/v2/config/env-file`, { headers: authHeaders(server.token) });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ content: ENV_TEXT });
  });

  test("PUT one variable: written in place, file 0600, previous kept as .env.bak (0600)", async () => {
    const res = await send("PUT", "/api/v2/config/env-vars", { key: "OPENAI_API_KEY", value: "sk new key" });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      message: "OPENAI_API_KEY written to .env; restart `karenina serve` for the server to use it",
    });
    expect(await readFile(envPath(), "utf8")).toBe(
      "# keys\nOPENAI_API_KEY='sk new key'\nDB_PATH=/data/dbs\n",
    );
    expect(await mode(envPath())).toBe(0o600);
    expect(await readFile(`${envPath()}.bak`, "utf8")).toBe(ENV_TEXT);
    expect(await mode(`${envPath()}.bak`)).toBe(0o600);
  });

  test("a value with a line break (smuggling a second variable) is refused, naming the field", async () => {
    const res = await send("PUT", "/api/v2/config/env-vars", {
      key: "DB_PATH",
      value: "x\nNODE_OPTIONS=--inspect",
    });
    expect(res.status).toBe(422);
    const body = (await res.json()) as { error: { message: string } };
    expect(body.error.message).toBe(
      'body.value: no line breaks or NUL (each variable is one line of .env), found a string "x\\nNODE_OPTIONS=--inspect"',
    );
    expect(await readFile(envPath(), "utf8")).toBe(ENV_TEXT);
  });

  test("a key not of the form ^[A-Z_][A-Z0-9_]*$ is refused", async () => {
    const res = await send("PUT", "/api/v2/config/env-vars", { key: "lower-case", value: "x" });
    expect(res.status).toBe(422);
    const body = (await res.json()) as { error: { message: string } };
    expect(body.error.message).toMatch(/^body\.key: /);
  });

  test("bulk: all written at once; one bad variable writes none", async () => {
    const good = await send("PUT", "/api/v2/config/env-vars/bulk", {
      variables: [
        { key: "A_API_KEY", value: "a" },
        { key: "B", value: "b" },
      ],
    });
    expect(good.status).toBe(200);
    expect(await good.json()).toEqual({
      message: "2 variable(s) written to .env; restart `karenina serve` for the server to use it",
      updated: ["A_API_KEY", "B"],
    });
    const after = await readFile(envPath(), "utf8");
    expect(after).toBe(`${ENV_TEXT}A_API_KEY=a\nB=b\n`);
    const bad = await send("PUT", "/api/v2/config/env-vars/bulk", {
      variables: [
        { key: "C", value: "c" },
        { key: "bad key", value: "d" },
      ],
    });
    expect(bad.status).toBe(422);
    expect(await readFile(envPath(), "utf8")).toBe(after);
  });

  test("bulk over 50 variables is refused", async () => {
    const variables = Array.from({ length: 51 }, (_, i) => ({ key: `K${i}`, value: "v" }));
    const res = await send("PUT", "/api/v2/config/env-vars/bulk", { variables });
    expect(res.status).toBe(422);
  });

  test("DELETE removes a variable; an absent one is a 404", async () => {
    const res = await send("DELETE", "/api/v2/config/env-vars/DB_PATH");
    expect(res.status).toBe(200);
    expect(await readFile(envPath(), "utf8")).toBe("# keys\nOPENAI_API_KEY=sk-test-abcdefgh12345678\n");
    const missing = await send("DELETE", "/api/v2/config/env-vars/NOPE");
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({
      error: { code: "not_found", message: "variable NOPE in .env not found" },
    });
  });

  test("PUT env-file replaces the text, 0600, with a backup", async () => {
    const res = await send("PUT", "/api/v2/config/env-file", { content: "X=1\n" });
    expect(res.status).toBe(200);
    expect(await readFile(envPath(), "utf8")).toBe("X=1\n");
    expect(await mode(envPath())).toBe(0o600);
    expect(await readFile(`${envPath()}.bak`, "utf8")).toBe(ENV_TEXT);
  });

  test("env-file over 50,000 characters is refused", async () => {
    const res = await send("PUT", "/api/v2/config/env-file", { content: "x".repeat(50_001) });
    expect(res.status).toBe(422);
  });

  test("a .env that is a symlink elsewhere is replaced, never written through", async () => {
    const outside = join(server.deps.workDir, "..", `outside-${Date.now()}.txt`);
    await writeFile(outside, "untouched\n");
    await (await import("node:fs/promises")).rm(envPath());
    await symlink(outside, envPath());
    const res = await send("PUT", "/api/v2/config/env-vars", { key: "X", value: "1" });
    expect(res.status).toBe(200);
    expect(await readFile(outside, "utf8")).toBe("untouched\n");
    expect((await lstat(envPath())).isSymbolicLink()).toBe(false);
    expect(await readFile(envPath(), "utf8")).toBe("untouched\nX=1\n");
  });

  test("a foreign page cannot write .env (same-origin check)", async () => {
    const res = await send(
      "PUT",
      "/api/v2/config/env-vars",
      { key: "X", value: "1" },
      {
        origin: "http://attacker.example",
      },
    );
    expect(res.status).toBe(403);
    expect(await readFile(envPath(), "utf8")).toBe(ENV_TEXT);
  });
});

describe("model defaults", () => {
  test("without defaults.json: the fallback, and a status saying so", async () => {
    const res = await fetch(`${server.url}/api/v2/config/defaults`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      default_interface: "langchain",
      default_provider: "anthropic",
      default_model: "claude-haiku-4-5",
      default_endpoint_base_url: "",
    });
    const status = await (await fetch(`${server.url}/api/v2/config/defaults/status`)).json();
    expect(status).toEqual({
      path: join(server.deps.workDir, "defaults.json"),
      exists: false,
      valid: false,
      modified_at: null,
      problem: null,
      using_fallback: true,
    });
  });

  test("PUT saves them; claude_* forces provider anthropic", async () => {
    const res = await send("PUT", "/api/v2/config/defaults", {
      default_interface: "claude_tool",
      default_provider: "openai",
      default_model: "claude-sonnet-4-5",
    });
    expect(res.status).toBe(200);
    const saved = {
      default_interface: "claude_tool",
      default_provider: "anthropic",
      default_model: "claude-sonnet-4-5",
    };
    expect(await res.json()).toEqual({ message: "defaults.json saved", config: saved });
    expect(JSON.parse(await readFile(join(server.deps.workDir, "defaults.json"), "utf8"))).toEqual(saved);
    expect(await (await fetch(`${server.url}/api/v2/config/defaults`)).json()).toEqual(saved);
  });

  test("openai_endpoint without a base URL, an unknown interface, an empty model: 422 naming each", async () => {
    const res = await send("PUT", "/api/v2/config/defaults", {
      default_interface: "openai_endpoint",
      default_provider: "ollama",
      default_model: "llama3.1",
    });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { error: { message: string } }).error.message).toBe(
      "body.default_endpoint_base_url: openai_endpoint needs the endpoint's base URL (scheme and host)",
    );
    const unknown = await send("PUT", "/api/v2/config/defaults", {
      default_interface: "telepathy",
      default_provider: "x",
      default_model: "",
    });
    const message = ((await unknown.json()) as { error: { message: string } }).error.message;
    expect(message).toContain("body.default_interface: one of langchain, openrouter");
    expect(message).toContain("body.default_model: a model name");
  });

  test("reset removes defaults.json (kept as .bak): the fallback applies", async () => {
    await send("PUT", "/api/v2/config/defaults", {
      default_interface: "openai",
      default_provider: "openai",
      default_model: "gpt-4.1-mini",
    });
    const res = await send("POST", "/api/v2/config/defaults/reset");
    expect(res.status).toBe(200);
    expect(
      ((await (await fetch(`${server.url}/api/v2/config/defaults`)).json()) as { default_model: string })
        .default_model,
    ).toBe("claude-haiku-4-5");
    expect(
      JSON.parse(await readFile(join(server.deps.workDir, "defaults.json.bak"), "utf8")).default_model,
    ).toBe("gpt-4.1-mini");
  });
});
