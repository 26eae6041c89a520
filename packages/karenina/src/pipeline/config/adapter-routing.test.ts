import { afterEach, beforeEach, expect, test } from "vitest";
import { AdapterUnavailableError, userMessage } from "../../llm/index.js";
import { type OpenAiTestServer, startOpenAiServer } from "../../test-support/openai-server/index.js";
import {
  adapterTarget,
  llmPortFor,
  ModelConfigSchema,
  openAiEndpointOptions,
  parserPortFor,
} from "./index.js";

let server: OpenAiTestServer;
beforeEach(async () => {
  server = await startOpenAiServer();
});
afterEach(async () => {
  await server.close();
});

const endpointModel = () =>
  ModelConfigSchema.parse({
    id: "local",
    model_name: "qwen",
    interface: "openai_endpoint",
    endpoint_base_url: server.url,
    endpoint_api_key: "sk-route",
    request_timeout: 2.5,
  });

test("an openai_endpoint model config reaches its server with its key", async () => {
  server.script({ reply: { text: "hello" } });
  const response = await llmPortFor(endpointModel()).invoke([userMessage("hi")]);
  expect(response.content).toBe("hello");
  expect(server.requests[0]?.headers.authorization).toBe("Bearer sk-route");
  expect(server.requests[0]?.body).toMatchObject({ model: "qwen", temperature: 0.1, max_tokens: 16384 });
  expect(openAiEndpointOptions(endpointModel()).requestTimeoutMs).toBe(2500);
});

test("the base URL mode comes from extra_kwargs and is checked", () => {
  const raw = ModelConfigSchema.parse({
    ...endpointModel(),
    endpoint_api_key: "k",
    extra_kwargs: { endpoint_base_url_mode: "raw" },
  });
  expect(openAiEndpointOptions(raw).baseUrlMode).toBe("raw");
  const odd = ModelConfigSchema.parse({
    ...raw,
    endpoint_api_key: "k",
    extra_kwargs: { endpoint_base_url_mode: "v2" },
  });
  expect(() => openAiEndpointOptions(odd)).toThrow(/endpoint_base_url_mode must be auto_v1 or raw/);
});

test("a model without its key is unavailable rather than sent unauthenticated", () => {
  const keyless = ModelConfigSchema.parse({ ...endpointModel(), endpoint_api_key: null });
  expect(() => parserPortFor(keyless)).toThrow(AdapterUnavailableError);
});

test("interfaces of the original map to the adapters serving them", () => {
  expect(adapterTarget("langchain", "openai")).toBe("openai");
  expect(adapterTarget("langchain", "google_genai")).toBe("google");
  expect(adapterTarget("langchain", "mistralai")).toBeNull();
  expect(adapterTarget("openrouter", null)).toBe("openai-compatible");
  expect(adapterTarget("claude_tool", null)).toBe("anthropic");
  expect(adapterTarget("manual", null)).toBe("manual");
  expect(adapterTarget("nonsense", null)).toBeNull();
  const claude = ModelConfigSchema.parse({ id: "c", model_name: "claude", interface: "claude_tool" });
  expect(() => llmPortFor(claude)).toThrow(/needs the anthropic adapter, not built yet/);
});
