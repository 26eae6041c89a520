import { afterEach, expect, test } from "vitest";
import { INTERFACES } from "../../pipeline/index.js";
import { callApi } from "../__fixtures__/api-calls.js";
import { startTestServer, type TestServer } from "../__fixtures__/test-server.js";
import type { ModelInterfaces } from "../api-types/index.js";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

test("GET /api/v2/interfaces lists the registry's interfaces, manual answering only, without taskeval", async () => {
  server = await startTestServer();
  const { status, json: body } = await callApi<ModelInterfaces>(server.url, "GET", "/api/v2/interfaces");
  expect(status).toBe(200);
  const names = body.interfaces.map((i) => i.name);
  for (const name of [
    "langchain",
    "openrouter",
    "openai_endpoint",
    "claude_tool",
    "claude_agent_sdk",
    "langchain_deep_agents",
    "manual",
  ])
    expect(names).toContain(name);
  expect(names).not.toContain("taskeval");
  expect(names.every((name) => Object.hasOwn(INTERFACES, name))).toBe(true);
  const manual = body.interfaces.find((i) => i.name === "manual");
  expect(manual).toMatchObject({ answering: true, parsing: false });
  expect(body.interfaces.find((i) => i.name === "claude_agent_sdk")?.agent_tier).toBe("deep_agent");
  expect(body.interfaces.find((i) => i.name === "langchain")?.requires_provider).toBe(true);
  expect(body.providers).toEqual(expect.arrayContaining(["openai", "anthropic"]));
});
