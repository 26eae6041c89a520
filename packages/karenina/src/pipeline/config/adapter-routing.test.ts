import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { z } from "zod";
import {
  AdapterUnavailableError,
  ManualTraces,
  ReplayMissError,
  userMessage,
  zodStructuredSchema,
} from "../../llm/index.js";
import { type OpenAiTestServer, startOpenAiServer } from "../../test-support/openai-server/index.js";
import { startAnthropicServer, startGoogleServer } from "../../test-support/provider-servers/index.js";
import { serverPerTest } from "../../test-support/server-per-test.js";
import {
  adapterTarget,
  callAdapterFor,
  embeddingPortFor,
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

const model = (fields: Record<string, unknown>) =>
  ModelConfigSchema.parse({ id: "m", model_name: "some-model", ...fields });

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

test("an openai_endpoint model without its key is unavailable, even with OPENAI_API_KEY set", () => {
  const keyless = ModelConfigSchema.parse({ ...endpointModel(), endpoint_api_key: null });
  expect(() => parserPortFor(keyless, { env: { OPENAI_API_KEY: "sk-env" } })).toThrow(
    AdapterUnavailableError,
  );
});

test("interfaces of the original map to the adapters serving them", () => {
  expect(adapterTarget("langchain", "openai")).toBe("openai");
  expect(adapterTarget("langchain", "google_genai")).toBe("google");
  expect(adapterTarget("langchain", "mistralai")).toBe("mistral");
  expect(adapterTarget("langchain", "bedrock")).toBe("bedrock");
  expect(adapterTarget("langchain", "ibm")).toBeNull();
  expect(adapterTarget("openrouter", null)).toBe("openai-compatible");
  expect(adapterTarget("claude_tool", null)).toBe("anthropic");
  expect(adapterTarget("manual", null)).toBe("manual");
  expect(adapterTarget("nonsense", null)).toBeNull();
  expect(callAdapterFor(model({ interface: "langchain", model_provider: "anthropic" }))).toBe("anthropic");
  expect(callAdapterFor(model({ interface: "langchain", model_provider: "openai" }))).toBe("openai");
  expect(callAdapterFor(model({ interface: "langchain", model_provider: "google_genai" }))).toBe("google");
  expect(callAdapterFor(model({ interface: "claude_tool" }))).toBe("anthropic");
  expect(callAdapterFor(model({ interface: "claude_agent_sdk" }))).toBe("anthropic");
  expect(callAdapterFor(model({ interface: "langchain_deep_agents", model_provider: "openai" }))).toBe(
    "openai",
  );
  expect(callAdapterFor(model({ interface: "openrouter" }))).toBe("openrouter");
  expect(callAdapterFor(model({ interface: "openai" }))).toBe("openai");
  expect(callAdapterFor(model({ interface: "anthropic" }))).toBe("anthropic");
  expect(callAdapterFor(model({ interface: "google" }))).toBe("google");
});

describe("models the library cannot call", () => {
  test("manual and taskeval models have no LLM or parser port", () => {
    const manual = ModelConfigSchema.parse({ interface: "manual", manual_traces: {} });
    const taskeval = model({ interface: "taskeval" });
    expect(() => llmPortFor(manual)).toThrow(
      /manual interface replays answers given in advance and has no LLM/,
    );
    expect(() => parserPortFor(taskeval)).toThrow(AdapterUnavailableError);
  });

  test("a LangChain provider without an adapter, or a missing provider, is named with a hint", () => {
    const ibm = model({ interface: "langchain", model_provider: "ibm" });
    expect(() => llmPortFor(ibm)).toThrow(
      /provider ibm has no adapter here; the supported providers are openai, anthropic, google_genai, mistralai/,
    );
    expect(() => llmPortFor(model({ interface: "langchain" }))).toThrow(/needs model_provider/);
  });

  test("an unknown interface (only possible on an unvalidated config) is unavailable with a langchain hint", () => {
    const odd = { ...model({ interface: "openai" }), interface: "cohere_native" };
    const error = (() => {
      try {
        llmPortFor(odd);
      } catch (e) {
        return e;
      }
    })() as AdapterUnavailableError;
    expect(error).toBeInstanceOf(AdapterUnavailableError);
    expect(error.fallbackInterface).toBe("langchain");
    expect(error.message).toMatch(/unknown interface "cohere_native"/);
  });
});

describe("API keys", () => {
  test("a langchain/openai model takes OPENAI_API_KEY from the given environment", async () => {
    server.script({ reply: { text: "from openai" } });
    const openai = model({
      interface: "langchain",
      model_provider: "openai",
      endpoint_base_url: server.baseURL,
    });
    const response = await llmPortFor(openai, { env: { OPENAI_API_KEY: "sk-env-openai" } }).invoke([
      userMessage("hi"),
    ]);
    expect(response.content).toBe("from openai");
    expect(server.requests[0]?.headers.authorization).toBe("Bearer sk-env-openai");
  });

  test("the model's secret wins over the environment, and a missing key names the variable", () => {
    const openai = model({ interface: "openai" });
    expect(() => llmPortFor(openai, { env: {} })).toThrow(/set the environment variable OPENAI_API_KEY/);
    const google = model({ interface: "google" });
    expect(() => parserPortFor(google, { env: {} })).toThrow(
      /GOOGLE_GENERATIVE_AI_API_KEY \(or GEMINI_API_KEY/,
    );
    const openrouter = model({ interface: "openrouter" });
    expect(() => llmPortFor(openrouter, { env: {} })).toThrow(/OPENROUTER_API_KEY/);
  });

  test("a missing-key error never shows other secrets of the model", () => {
    const claude = model({ interface: "claude_tool", endpoint_api_key: "sk-unrelated-secret" });
    const error = (() => {
      try {
        llmPortFor(claude, { env: {} });
      } catch (e) {
        return e as Error;
      }
    })();
    expect(error?.message).toMatch(/ANTHROPIC_API_KEY/);
    expect(error?.message).not.toContain("sk-unrelated-secret");
  });
});

describe("anthropic and google models over HTTP", () => {
  const anthropic = serverPerTest(startAnthropicServer);
  const google = serverPerTest(startGoogleServer);

  test("claude_tool uses anthropic_api_key and anthropic_base_url", async () => {
    anthropic.script({ reply: { text: "claude says hi" } });
    const claude = model({
      interface: "claude_tool",
      model_name: "gateway-model",
      anthropic_api_key: "sk-ant-config",
      anthropic_base_url: anthropic.url,
    });
    const response = await llmPortFor(claude, { env: { ANTHROPIC_API_KEY: "sk-ant-env" } }).invoke([
      userMessage("hi"),
    ]);
    expect(response.content).toBe("claude says hi");
    expect(anthropic.requests[0]?.headers["x-api-key"]).toBe("sk-ant-config");
    expect(anthropic.requests[0]?.body).toMatchObject({ model: "gateway-model", max_tokens: 16384 });
  });

  test("langchain/anthropic falls back to ANTHROPIC_API_KEY", async () => {
    anthropic.script({ reply: { text: "ok" } });
    const claude = model({
      interface: "langchain",
      model_provider: "anthropic",
      model_name: "gateway-model",
      anthropic_base_url: anthropic.baseURL,
    });
    await llmPortFor(claude, { env: { ANTHROPIC_API_KEY: "sk-ant-env" } }).invoke([userMessage("hi")]);
    expect(anthropic.requests[0]?.headers["x-api-key"]).toBe("sk-ant-env");
  });

  test("langchain/google_genai parses through the Gemini API with GEMINI_API_KEY", async () => {
    google.script({ reply: { json: { gene: "BCL2" } } });
    const gemini = model({
      interface: "langchain",
      model_provider: "google_genai",
      model_name: "gemini-test",
      endpoint_base_url: google.baseURL,
    });
    const Answer = zodStructuredSchema("Answer", z.object({ gene: z.string() }));
    const result = await parserPortFor(gemini, { env: { GEMINI_API_KEY: "g-key" } }).parse(
      [userMessage("gene?")],
      Answer,
    );
    expect(result.parsed).toEqual({ gene: "BCL2" });
    expect(google.requests[0]?.headers["x-goog-api-key"]).toBe("g-key");
  });
});

describe("recording through routing", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "karenina-routing-rec-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test("a model recorded once replays offline without any key", async () => {
    server.script({ reply: { text: "recorded answer" } });
    const live = model({ interface: "openai", endpoint_base_url: server.baseURL });
    const recorded = await llmPortFor(live, {
      env: { OPENAI_API_KEY: "k" },
      recording: { dir, mode: "record" },
    }).invoke([userMessage("question")]);
    await server.close();
    const replayed = await llmPortFor(live, { env: {}, recording: { dir, mode: "replay" } }).invoke([
      userMessage("question"),
    ]);
    expect(replayed).toEqual(recorded);
    const other = await llmPortFor(live, { env: {}, recording: { dir, mode: "replay" } })
      .invoke([userMessage("another question")])
      .catch((e: unknown) => e);
    expect(other).toBeInstanceOf(ReplayMissError);
    server = await startOpenAiServer();
  });
});

test("embeddings route through openai_endpoint and openai models only", async () => {
  const port = embeddingPortFor(endpointModel(), "embedder");
  const { embeddings } = await port.embed(["a", "b"]);
  expect(embeddings).toHaveLength(2);
  expect(server.requests[0]?.body).toMatchObject({ model: "embedder" });
  expect(server.requests[0]?.headers.authorization).toBe("Bearer sk-route");
  const openai = model({ interface: "openai", endpoint_base_url: server.baseURL });
  await embeddingPortFor(openai, "text-embedding-3-small", { env: { OPENAI_API_KEY: "sk-e" } }).embed(["c"]);
  expect(server.requests[1]?.headers.authorization).toBe("Bearer sk-e");
  expect(() => embeddingPortFor(model({ interface: "claude_tool" }), "e")).toThrow(AdapterUnavailableError);
});

test("a manual model takes a ManualTraces registry or a plain record, and never a boolean", () => {
  const traces = new ManualTraces();
  expect(ModelConfigSchema.parse({ interface: "manual", manual_traces: traces }).manual_traces).toBe(traces);
  expect(ModelConfigSchema.parse({ interface: "manual", manual_traces: { abc: "t" } }).manual_traces).toEqual(
    {
      abc: "t",
    },
  );
  expect(ModelConfigSchema.safeParse({ interface: "manual", manual_traces: true }).success).toBe(false);
});

test("the new interfaces validate without a provider", () => {
  for (const name of ["openai", "anthropic", "google"]) {
    expect(ModelConfigSchema.safeParse({ id: "x", model_name: "y", interface: name }).success).toBe(true);
  }
  expect(
    ModelConfigSchema.safeParse({ id: "x", model_name: "y", interface: "anthropic", anthropic_api_key: "k" })
      .success,
  ).toBe(true);
});
