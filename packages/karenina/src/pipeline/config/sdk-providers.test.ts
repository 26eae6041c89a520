/**
 * The providers reached through the AI SDK's own packages (issue 20), over real HTTP against fake APIs on
 * 127.0.0.1 speaking each provider's wire format (hand-written replies): Mistral, Groq, Ollama's native API and
 * Azure OpenAI answer, give structured judge output, call a tool, have a 429 retried after its `retry-after`,
 * and count usage; xAI, DeepSeek and Together answer; all seven stream (each API's own stream format, a stream
 * cut by the call's timeout keeping its text); `langchain` provider names route to them.
 */
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, test } from "vitest";
import { AdapterUnavailableError } from "../../llm/index.js";
import { GENE_QUESTION } from "../../test-support/gene-question.js";
import { watchedPackagesLoadedBy } from "../../test-support/module-log/index.js";
import {
  type ChatRule,
  type RecordedRequest,
  startChatServer,
  startOllamaServer,
} from "../../test-support/provider-servers/index.js";
import type { ScriptedHttpServer } from "../../test-support/scripted-http.js";
import {
  describeProviderConformance,
  describeStreamedAnswer,
  type StreamingCase,
} from "./__fixtures__/provider-conformance.js";
import {
  callAdapterFor,
  languageModelFor,
  llmPortFor,
  ModelConfigSchema,
  type PortRoutingOptions,
} from "./index.js";

const KEY = "sk-provider-test-secret-42";

type Server = ScriptedHttpServer<ChatRule> & { baseURL?: string };

/** A provider under test: its fake API, the model config reaching it, and what its requests must look like. */
interface ProviderCase {
  name: string;
  start: () => Promise<Server>;
  model: (server: Server) => Record<string, unknown>;
  env: Record<string, string>;
  adapter: string;
  /** The path (and query) of a chat request, and the key's header. */
  path: string;
  query?: string;
  keyHeader: [string, string] | null;
  /** What a structured call asks of the API. */
  structured: (body: Record<string, unknown>) => void;
  /** How a streamed request asks for its usage: `stream_options` as the provider package sends it. */
  streamOptions: unknown;
}

const openAiStyleSchema = (body: Record<string, unknown>) =>
  expect(body.response_format).toMatchObject({
    type: "json_schema",
    json_schema: { schema: { required: ["gene", "confidence"] } },
  });

const CASES: ProviderCase[] = [
  {
    name: "mistral",
    start: () => startChatServer("mistral"),
    model: (server) => ({
      interface: "mistral",
      model_name: "mistral-small-latest",
      endpoint_base_url: server.baseURL,
      endpoint_api_key: KEY,
    }),
    env: {},
    adapter: "mistral",
    path: "/v1/chat/completions",
    keyHeader: ["authorization", `Bearer ${KEY}`],
    structured: openAiStyleSchema,
    // Mistral sends the usage on the last chunk unasked.
    streamOptions: undefined,
  },
  {
    name: "groq (langchain model_provider groq, key from GROQ_API_KEY)",
    start: () => startChatServer("groq"),
    model: (server) => ({
      interface: "langchain",
      model_provider: "groq",
      model_name: "llama-3.3-70b-versatile",
      extra_kwargs: { base_url: server.baseURL },
    }),
    env: { GROQ_API_KEY: KEY },
    adapter: "groq",
    path: "/openai/v1/chat/completions",
    keyHeader: ["authorization", `Bearer ${KEY}`],
    structured: openAiStyleSchema,
    // Groq sends the usage in the last chunk's `x_groq` unasked.
    streamOptions: undefined,
  },
  {
    name: "ollama (native /api/chat, host from OLLAMA_HOST)",
    start: () => startOllamaServer(),
    model: () => ({ interface: "langchain", model_provider: "ollama", model_name: "llama3.1:8b" }),
    env: {},
    adapter: "ollama",
    path: "/api/chat",
    keyHeader: null,
    structured: (body) => {
      expect(body.format).toMatchObject({ type: "object", required: ["gene", "confidence"] });
      expect(body.stream).toBe(false);
    },
    streamOptions: undefined,
  },
  {
    name: "azure (langchain azure_openai, deployment URL with a dated api-version)",
    start: () => startChatServer("azure"),
    model: (server) => ({
      interface: "langchain",
      model_provider: "azure_openai",
      model_name: "gpt-4o",
      extra_kwargs: { azure_endpoint: server.url, azure_deployment: "judge-prod", api_version: "2024-10-21" },
    }),
    env: { AZURE_OPENAI_API_KEY: KEY },
    adapter: "azure",
    path: "/openai/deployments/judge-prod/chat/completions",
    query: "api-version=2024-10-21",
    keyHeader: ["api-key", KEY],
    structured: openAiStyleSchema,
    streamOptions: { include_usage: true },
  },
];

let running: Server | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function setUp(providerCase: ProviderCase) {
  const server = await providerCase.start();
  running = server;
  const env = providerCase.adapter === "ollama" ? { OLLAMA_HOST: server.url } : providerCase.env;
  const model = ModelConfigSchema.parse({ id: "m", temperature: 0, ...providerCase.model(server) });
  const options: PortRoutingOptions = { env };
  return { server, model, options };
}

function expectRequestShape(providerCase: ProviderCase, request: RecordedRequest | undefined) {
  expect(request?.path).toBe(providerCase.path);
  if (providerCase.query !== undefined) expect(request?.query).toBe(providerCase.query);
  if (providerCase.keyHeader === null) {
    expect(request?.headers.authorization).toBeUndefined();
  } else {
    const [header, value] = providerCase.keyHeader;
    expect(request?.headers[header]).toBe(value);
  }
}

describeProviderConformance(
  CASES.map((providerCase) => ({
    name: providerCase.name,
    adapter: providerCase.adapter,
    setUp: () => setUp(providerCase),
    expectRequest: (request) => expectRequestShape(providerCase, request),
    roles: ["system", "user"],
    structured: providerCase.structured,
    messagesOf: (body) => body.messages,
  })),
);

/** xAI, DeepSeek and Together: the OpenAI shape, each through its own package. */
const OTHER_APIS: [adapter: string, modelName: string, path: string, base: (url: string) => string][] = [
  ["xai", "grok-3-mini", "/v1/chat/completions", (url) => `${url}/v1`],
  ["deepseek", "deepseek-chat", "/chat/completions", (url) => url],
  ["together", "meta-llama/Llama-3.3-70B-Instruct-Turbo", "/v1/chat/completions", (url) => `${url}/v1`],
];

async function setUpOther([adapter, modelName, , base]: (typeof OTHER_APIS)[number]) {
  const server = await startChatServer("openai");
  running = server;
  const model = ModelConfigSchema.parse({
    id: "m",
    interface: adapter,
    model_name: modelName,
    endpoint_base_url: base(server.url),
    endpoint_api_key: KEY,
  });
  return { server, model, options: { env: {} } };
}

const streamed = (request: RecordedRequest | undefined, streamOptions: unknown) => {
  expect(request?.body.stream).toBe(true);
  expect(request?.body.stream_options).toEqual(streamOptions);
};

describeStreamedAnswer([
  ...CASES.map(
    (providerCase): StreamingCase => ({
      name: providerCase.name,
      setUp: () => setUp(providerCase),
      expectStreamRequest(request) {
        expectRequestShape(providerCase, request);
        streamed(request, providerCase.streamOptions);
      },
    }),
  ),
  ...OTHER_APIS.map(
    (api): StreamingCase => ({
      name: api[0],
      setUp: () => setUpOther(api),
      expectStreamRequest(request) {
        expect(request?.path).toBe(api[2]);
        expect(request?.headers.authorization).toBe(`Bearer ${KEY}`);
        streamed(request, { include_usage: true });
      },
    }),
  ),
]);

describe("the other hosted chat APIs", () => {
  test.each(OTHER_APIS)(
    "%s answers through its own provider package with the key as a bearer token",
    async (...api) => {
      const [, modelName, path] = api;
      const { server, model } = await setUpOther(api);
      server.script({ reply: { text: "BCL2", usage: { input: 12, output: 1 } } });
      const response = await llmPortFor(model).invoke(GENE_QUESTION);
      expect(response).toMatchObject({ content: "BCL2", usage: { input_tokens: 12, output_tokens: 1 } });
      expect(server.requests[0]?.path).toBe(path);
      expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
      expect(server.requests[0]?.body.model).toBe(modelName);
    },
  );

  test("a key read from the environment as LangChain reads it: TOGETHER_API_KEY for langchain + together", () => {
    const model = ModelConfigSchema.parse({
      id: "m",
      interface: "langchain",
      model_provider: "together",
      model_name: "x",
    });
    expect(languageModelFor(model, { env: { TOGETHER_API_KEY: KEY } }).secrets).toEqual([KEY]);
    expect(() => languageModelFor(model, { env: {} })).toThrow(/TOGETHER_API_KEY/);
  });
});

describe("Azure OpenAI's v1 API", () => {
  test("without an api-version the call goes to /openai/v1 with the deployment in the body", async () => {
    const server = await startChatServer("azure");
    running = server;
    server.script({ reply: { text: "BCL2" } });
    const model = ModelConfigSchema.parse({
      id: "m",
      interface: "azure",
      model_name: "judge-prod",
      endpoint_base_url: `${server.url}/openai/`,
      endpoint_api_key: KEY,
    });
    await llmPortFor(model, { env: {} }).invoke(GENE_QUESTION);
    expect(server.requests[0]).toMatchObject({
      path: "/openai/v1/chat/completions",
      body: { model: "judge-prod" },
    });
    expect(server.requests[0]?.headers["api-key"]).toBe(KEY);
  });

  test("without an endpoint the adapter says which setting to give", () => {
    const model = ModelConfigSchema.parse({
      id: "m",
      interface: "azure",
      model_name: "d",
      endpoint_api_key: KEY,
    });
    expect(() => languageModelFor(model, { env: {} })).toThrow(/AZURE_OPENAI_ENDPOINT/);
  });
});

describe("langchain provider names", () => {
  test.each([
    ["mistralai", "mistral"],
    ["groq", "groq"],
    ["xai", "xai"],
    ["deepseek", "deepseek"],
    ["together", "together"],
    ["ollama", "ollama"],
    ["azure_openai", "azure"],
  ])("model_provider %s runs on the %s adapter", (provider, adapter) => {
    const model = ModelConfigSchema.parse({
      id: "m",
      interface: "langchain",
      model_provider: provider,
      model_name: "x",
    });
    expect(callAdapterFor(model)).toBe(adapter);
  });

  test("an unsupported provider name is refused with the list of supported ones", () => {
    const model = ModelConfigSchema.parse({
      id: "m",
      interface: "langchain",
      model_provider: "ibm",
      model_name: "ibm/granite-3-8b-instruct",
    });
    const error = (() => {
      try {
        callAdapterFor(model);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(AdapterUnavailableError);
    expect((error as Error).message).toContain("provider ibm has no adapter here");
    expect((error as Error).message).toContain(
      "openai, anthropic, google_genai, mistralai, groq, xai, deepseek, together, ollama, azure_openai, bedrock, bedrock_converse, cohere",
    );
  });
});

describe("provider packages load only when used", () => {
  const PROBE = fileURLToPath(new URL("./__fixtures__/lazy-provider-probe.ts", import.meta.url));
  const PROVIDER_PACKAGES = [
    "@ai-sdk/mistral",
    "@ai-sdk/groq",
    "@ai-sdk/xai",
    "@ai-sdk/deepseek",
    "@ai-sdk/togetherai",
    "@ai-sdk/azure",
    "@ai-sdk/amazon-bedrock",
    "@ai-sdk/cohere",
    "ollama-ai-provider-v2",
  ];

  test("making a Mistral model's port loads no provider package; its first call loads @ai-sdk/mistral alone", async () => {
    expect(await watchedPackagesLoadedBy([PROBE], PROVIDER_PACKAGES)).toEqual([]);
    expect(await watchedPackagesLoadedBy([PROBE, "call"], PROVIDER_PACKAGES)).toEqual(["@ai-sdk/mistral"]);
  }, 60_000);
});
