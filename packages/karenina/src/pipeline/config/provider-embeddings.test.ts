/**
 * Embeddings through the providers' own AI SDK packages (issue 20, spec 04 §10's embedding port), over real
 * HTTP against fake APIs on 127.0.0.1 speaking each provider's embeddings wire format: Mistral, Together, Azure
 * OpenAI, Ollama's native `/api/embed`, Cohere's `/v2/embed` and Bedrock's invoke (Titan and Cohere). Every
 * vector is hand-written test data. Also: a provider without embeddings is refused naming those with, and the
 * provider packages load only at the first `embed`.
 */
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, test } from "vitest";
import { AdapterUnavailableError, RateLimitError } from "../../llm/index.js";
import { watchedPackagesLoadedBy } from "../../test-support/module-log/index.js";
import {
  type ProviderRule,
  startBedrockServer,
  startChatServer,
  startCohereServer,
  startOllamaServer,
} from "../../test-support/provider-servers/index.js";
import type { ScriptedHttpServer } from "../../test-support/scripted-http.js";
import { embeddingPortFor, ModelConfigSchema } from "./index.js";

const KEY = "sk-embedding-test-secret-7";
const VECTORS = [
  [0.25, 0.5, 0.75],
  [0.75, 0.5, 0.25],
];
const TEXTS = ["venetoclax inhibits BCL2", "BCL2 is inhibited"];

let running: ScriptedHttpServer<ProviderRule> | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function serve<Server extends ScriptedHttpServer<ProviderRule>>(start: () => Promise<Server>) {
  const server = await start();
  running = server;
  return server;
}

const model = (fields: Record<string, unknown>) => ModelConfigSchema.parse({ id: "judge", ...fields });

const usage = (tokens: number, name: string) => ({
  input_tokens: tokens,
  output_tokens: 0,
  total_tokens: tokens,
  model: name,
});

describe("embeddings over each provider's API", () => {
  test("mistral: mistral-embed at /v1/embeddings, the key as a bearer token, prompt_tokens counted", async () => {
    const server = await serve(() => startChatServer("mistral"));
    server.script({
      endpoint: "embeddings",
      match: { model: "mistral-embed" },
      reply: { embeddings: VECTORS, tokens: 11 },
    });
    const port = embeddingPortFor(
      model({
        interface: "mistral",
        model_name: "mistral-small-latest",
        endpoint_base_url: server.baseURL,
        endpoint_api_key: KEY,
      }),
      "mistral-embed",
    );
    const result = await port.embed(TEXTS);
    expect(result).toEqual({ embeddings: VECTORS, usage: usage(11, "mistral-embed") });
    const [request] = server.requests;
    expect(request?.path).toBe("/v1/embeddings");
    expect(request?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request?.body).toEqual({ model: "mistral-embed", input: TEXTS, encoding_format: "float" });
  });

  test("langchain mistralai takes MISTRAL_API_KEY and MISTRAL_BASE_URL; a 429 is a rate-limit error with its wait", async () => {
    const server = await serve(() => startChatServer("mistral"));
    server.script({ endpoint: "embeddings", reply: { status: 429, retryAfter: 3 } });
    const port = embeddingPortFor(
      model({ interface: "langchain", model_provider: "mistralai", model_name: "mistral-small-latest" }),
      "mistral-embed",
      { env: { MISTRAL_API_KEY: KEY, MISTRAL_BASE_URL: server.baseURL } },
    );
    const error = await port.embed(["a"]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterSeconds).toBe(3);
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  test("together: its /v1/embeddings through @ai-sdk/togetherai", async () => {
    const server = await serve(() => startChatServer("openai"));
    server.script({ endpoint: "embeddings", reply: { embeddings: VECTORS, tokens: 9 } });
    const port = embeddingPortFor(
      model({ interface: "together", model_name: "meta-llama/Llama-3.3-70B-Instruct-Turbo" }),
      "BAAI/bge-base-en-v1.5",
      { env: { TOGETHER_API_KEY: KEY, TOGETHER_API_BASE: `${server.url}/v1` } },
    );
    expect(await port.embed(TEXTS)).toEqual({
      embeddings: VECTORS,
      usage: usage(9, "BAAI/bge-base-en-v1.5"),
    });
    expect(server.requests[0]?.path).toBe("/v1/embeddings");
    expect(server.requests[0]?.body).toMatchObject({ model: "BAAI/bge-base-en-v1.5", input: TEXTS });
  });

  test("azure (langchain azure_openai, dated api-version): the embedding deployment's URL, the key in api-key", async () => {
    const server = await serve(() => startChatServer("azure"));
    server.script({
      endpoint: "embeddings",
      match: { model: "embed-prod" },
      reply: { embeddings: VECTORS, tokens: 8 },
    });
    const port = embeddingPortFor(
      model({
        interface: "langchain",
        model_provider: "azure_openai",
        model_name: "gpt-4o",
        // The chat deployment: embeddings go to the embedding deployment named for the check instead.
        extra_kwargs: {
          azure_endpoint: server.url,
          azure_deployment: "judge-prod",
          api_version: "2024-10-21",
        },
      }),
      "embed-prod",
      { env: { AZURE_OPENAI_API_KEY: KEY } },
    );
    expect(await port.embed(TEXTS)).toEqual({ embeddings: VECTORS, usage: usage(8, "embed-prod") });
    const [request] = server.requests;
    expect(request?.path).toBe("/openai/deployments/embed-prod/embeddings");
    expect(request?.query).toBe("api-version=2024-10-21");
    expect(request?.headers["api-key"]).toBe(KEY);
    expect(request?.headers.authorization).toBeUndefined();
    expect(request?.body).toMatchObject({ input: TEXTS });
  });

  test("azure's v1 API: /openai/v1/embeddings with the deployment in the body; an error never shows the key", async () => {
    const server = await serve(() => startChatServer("azure"));
    server.script(
      { endpoint: "embeddings", reply: { embeddings: VECTORS.slice(0, 1), tokens: 4 } },
      { endpoint: "embeddings", reply: { status: 401, message: `Access denied for key ${KEY}` } },
    );
    const port = embeddingPortFor(
      model({ interface: "azure", model_name: "gpt-4o" }),
      "text-embedding-3-small",
      {
        env: { AZURE_OPENAI_API_KEY: KEY, AZURE_OPENAI_ENDPOINT: `${server.url}/openai` },
      },
    );
    expect((await port.embed(["one"])).embeddings).toEqual(VECTORS.slice(0, 1));
    expect(server.requests[0]?.path).toBe("/openai/v1/embeddings");
    expect(server.requests[0]?.body.model).toBe("text-embedding-3-small");
    const error = await port.embed(["two"]).catch((e: unknown) => e);
    expect(error).toMatchObject({ category: "permanent" });
    expect((error as Error).message).not.toContain(KEY);
  });

  test("ollama (langchain ollama, host from OLLAMA_HOST): native /api/embed, prompt_eval_count counted", async () => {
    const server = await serve(() => startOllamaServer());
    server.script({
      endpoint: "embeddings",
      match: { model: "nomic-embed-text", lastUserIncludes: "venetoclax" },
      reply: { embeddings: VECTORS, tokens: 12 },
    });
    const port = embeddingPortFor(
      model({ interface: "langchain", model_provider: "ollama", model_name: "llama3.1:8b" }),
      "nomic-embed-text",
      { env: { OLLAMA_HOST: server.url } },
    );
    expect(await port.embed(TEXTS)).toEqual({ embeddings: VECTORS, usage: usage(12, "nomic-embed-text") });
    const [request] = server.requests;
    expect(request?.path).toBe("/api/embed");
    expect(request?.headers.authorization).toBeUndefined();
    expect(request?.body).toEqual({ model: "nomic-embed-text", input: TEXTS });
  });

  test("ollama: equal texts get equal vectors from the server's own (unscripted) answer", async () => {
    const server = await serve(() => startOllamaServer());
    const port = embeddingPortFor(
      model({ interface: "ollama", model_name: "llama3.1:8b", endpoint_base_url: `${server.url}/api` }),
      "nomic-embed-text",
    );
    const { embeddings } = await port.embed(["same", "same", "other"]);
    expect(embeddings[0]).toEqual(embeddings[1]);
    expect(embeddings[0]).not.toEqual(embeddings[2]);
  });

  test("cohere: /v2/embed with texts, input_type and float embeddings; billed input tokens counted", async () => {
    const server = await serve(() => startCohereServer());
    server.script({
      endpoint: "embeddings",
      match: { model: "embed-english-v3.0" },
      reply: { embeddings: VECTORS, tokens: 10 },
    });
    const port = embeddingPortFor(
      model({ interface: "cohere", model_name: "command-r-08-2024" }),
      "embed-english-v3.0",
      {
        env: { CO_API_KEY: KEY, CO_API_URL: server.url },
      },
    );
    expect(await port.embed(TEXTS)).toEqual({ embeddings: VECTORS, usage: usage(10, "embed-english-v3.0") });
    const [request] = server.requests;
    expect(request?.path).toBe("/v2/embed");
    expect(request?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request?.body).toMatchObject({
      model: "embed-english-v3.0",
      texts: TEXTS,
      input_type: "search_query",
      embedding_types: ["float"],
    });
  });

  test("bedrock Titan: one SigV4-signed invoke per text, in parallel, vectors in order and tokens summed", async () => {
    const server = await serve(() => startBedrockServer());
    server.script(
      {
        endpoint: "embeddings",
        match: { lastUserIncludes: "venetoclax" },
        reply: { embeddings: [VECTORS[0] ?? []], tokens: 5 },
      },
      {
        endpoint: "embeddings",
        match: { lastUserIncludes: "inhibited" },
        reply: { embeddings: [VECTORS[1] ?? []], tokens: 4 },
      },
    );
    const port = embeddingPortFor(
      model({
        interface: "langchain",
        model_provider: "bedrock_converse",
        model_name: "amazon.nova-pro-v1:0",
        extra_kwargs: { region_name: "eu-west-1", endpoint_url: server.url },
      }),
      "amazon.titan-embed-text-v2:0",
      { env: { AWS_ACCESS_KEY_ID: "AKIDEXAMPLE", AWS_SECRET_ACCESS_KEY: KEY } },
    );
    expect(await port.embed(TEXTS)).toEqual({
      embeddings: VECTORS,
      usage: usage(9, "amazon.titan-embed-text-v2:0"),
    });
    expect(server.requests).toHaveLength(2);
    for (const request of server.requests) {
      expect(decodeURIComponent(request.path)).toBe("/model/amazon.titan-embed-text-v2:0/invoke");
      expect(request.headers.authorization).toMatch(
        /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/eu-west-1\/bedrock\//,
      );
    }
    expect(server.requests.map((request) => request.body.inputText).sort()).toEqual([...TEXTS].sort());
  });

  test("bedrock Cohere: one invoke with texts and input_type, tokens from x-amzn-bedrock-input-token-count", async () => {
    const server = await serve(() => startBedrockServer());
    server.script({ endpoint: "embeddings", reply: { embeddings: VECTORS, tokens: 7 } });
    const port = embeddingPortFor(
      model({ interface: "bedrock", model_name: "amazon.nova-pro-v1:0" }),
      "cohere.embed-english-v3",
      {
        env: { AWS_REGION: "us-east-1", AWS_BEARER_TOKEN_BEDROCK: KEY, AWS_ENDPOINT_URL: server.url },
      },
    );
    expect(await port.embed(TEXTS)).toEqual({
      embeddings: VECTORS,
      usage: usage(7, "cohere.embed-english-v3"),
    });
    const [request] = server.requests;
    expect(server.requests).toHaveLength(1);
    expect(request?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request?.body).toMatchObject({ texts: TEXTS, input_type: "search_query" });
  });
});

describe("what has no embeddings", () => {
  test.each([
    [{ interface: "groq", model_name: "llama-3.3-70b-versatile" }, "groq"],
    [
      { interface: "langchain", model_provider: "xai", model_name: "grok-3-mini" },
      "xai (interface langchain, provider xai)",
    ],
    [{ interface: "anthropic", model_name: "claude-sonnet-4-5" }, "anthropic"],
    [{ interface: "deepseek", model_name: "deepseek-chat" }, "deepseek"],
  ])("%o is refused, naming the adapters that embed", (fields, named) => {
    const error = (() => {
      try {
        embeddingPortFor(model(fields), "some-embedder", { env: {} });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(AdapterUnavailableError);
    expect((error as Error).message).toContain(`${named} has no embeddings API here`);
    expect((error as Error).message).toContain(
      "openai_endpoint, openai, mistral, together, cohere, azure, ollama, bedrock",
    );
  });

  test("a missing key names the variable to set", () => {
    expect(() =>
      embeddingPortFor(model({ interface: "mistral", model_name: "m" }), "mistral-embed", { env: {} }),
    ).toThrow(/MISTRAL_API_KEY/);
    expect(() =>
      embeddingPortFor(model({ interface: "cohere", model_name: "c" }), "embed-english-v3.0", { env: {} }),
    ).toThrow(/COHERE_API_KEY/);
  });
});

describe("embedding provider packages load only when used", () => {
  const PROBE = fileURLToPath(new URL("./__fixtures__/lazy-embedding-probe.ts", import.meta.url));
  const PROVIDER_PACKAGES = [
    "@ai-sdk/mistral",
    "@ai-sdk/togetherai",
    "@ai-sdk/azure",
    "@ai-sdk/amazon-bedrock",
    "@ai-sdk/cohere",
    "ollama-ai-provider-v2",
  ];

  test("building five providers' embedding ports loads none; embedding through Ollama loads it alone", async () => {
    expect(await watchedPackagesLoadedBy([PROBE], PROVIDER_PACKAGES)).toEqual([]);
    expect(await watchedPackagesLoadedBy([PROBE, "ollama"], PROVIDER_PACKAGES)).toEqual([
      "ollama-ai-provider-v2",
    ]);
  }, 60_000);
});
