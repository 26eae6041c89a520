/**
 * Gemini on Google Vertex AI through `@ai-sdk/google-vertex`, over real HTTP against a fake Vertex API and a
 * fake Google OAuth token endpoint on 127.0.0.1 (hand-written replies): the five provider checks with a real
 * service-account key (an RSA key made here, the JWT-bearer grant signed by `google-auth-library` and verified
 * by the token endpoint, its token sent as the bearer), express mode's API key, the project, location and
 * credentials read from the environment with clear errors when missing, embeddings (`:predict`), and the
 * package loaded only at the first call. Nothing reaches a metadata server or Google: the metadata server is
 * switched off for the process, and every URL is on 127.0.0.1.
 */
import { generateKeyPairSync } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, test } from "vitest";
import { AdapterUnavailableError, RateLimitError } from "../../llm/index.js";
import { GENE_QUESTION } from "../../test-support/gene-question.js";
import { watchedPackagesLoadedBy } from "../../test-support/module-log/index.js";
import {
  type ChatRule,
  type GoogleTestServer,
  type RecordedRequest,
  startGoogleServer,
} from "../../test-support/provider-servers/index.js";
import type { ScriptedHttpServer } from "../../test-support/scripted-http.js";
import { costOf } from "../pricing.js";
import { describeProviderConformance, describeStreamedAnswer } from "./__fixtures__/provider-conformance.js";
import {
  TEST_CLIENT_EMAIL,
  TEST_PROJECT,
  testServiceAccount,
} from "./__fixtures__/vertex-service-account.js";
import { embeddingPortFor, llmPortFor, ModelConfigSchema, type PortRoutingOptions } from "./index.js";

const PROJECT = TEST_PROJECT;
const LOCATION = "europe-west4";
const MODEL = "gemini-2.5-flash";
const EXPRESS_KEY = "vertex-express-key-42";
const VERTEX_PATH = `/v1beta1/projects/${PROJECT}/locations/${LOCATION}/publishers/google/models/${MODEL}`;

const account = testServiceAccount();

let running: GoogleTestServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function serve() {
  running = await startGoogleServer();
  return running;
}

const serviceAccountEnv = () => account.env(LOCATION);
const issuedTokens = () => account.issuedTokens();

describeProviderConformance([
  {
    name: "vertex (langchain google_vertexai, a service-account key from GOOGLE_APPLICATION_CREDENTIALS)",
    adapter: "vertex",
    async setUp() {
      const server = await serve();
      const model = ModelConfigSchema.parse({
        id: "m",
        temperature: 0,
        interface: "langchain",
        model_provider: "google_vertexai",
        model_name: MODEL,
        endpoint_base_url: server.url,
      });
      const options: PortRoutingOptions = { env: serviceAccountEnv() };
      return { server: server as unknown as ScriptedHttpServer<ChatRule>, model, options };
    },
    expectRequest(request: RecordedRequest | undefined) {
      expect(request?.path).toBe(`${VERTEX_PATH}:generateContent`);
      const bearer = String(request?.headers.authorization).replace(/^Bearer /, "");
      expect(issuedTokens()).toContain(bearer);
      expect(request?.headers["x-goog-api-key"]).toBeUndefined();
    },
    roles: ["user"],
    structured(body) {
      expect(body.generationConfig).toMatchObject({
        responseMimeType: "application/json",
        responseSchema: { type: "object", required: ["gene", "confidence"] },
      });
    },
    messagesOf: (body) => body.contents,
  },
]);

/** A model of `interface` reaching the fake Gemini/Vertex server, with its credentials in the options. */
async function streamingSetUp(vertex: boolean) {
  const server = await serve();
  const model = ModelConfigSchema.parse({
    id: "m",
    temperature: 0,
    interface: vertex ? "vertex" : "google",
    model_name: MODEL,
    endpoint_base_url: vertex ? server.url : server.baseURL,
    ...(vertex ? {} : { endpoint_api_key: EXPRESS_KEY }),
  });
  const options: PortRoutingOptions = { env: vertex ? serviceAccountEnv() : {} };
  return { server: server as unknown as ScriptedHttpServer<ChatRule>, model, options };
}

describeStreamedAnswer([
  {
    name: "vertex (a service-account key)",
    setUp: () => streamingSetUp(true),
    expectStreamRequest(request) {
      expect(request?.path).toBe(`${VERTEX_PATH}:streamGenerateContent`);
      expect(issuedTokens()).toContain(String(request?.headers.authorization).replace(/^Bearer /, ""));
    },
  },
  {
    name: "google (the Gemini API)",
    setUp: () => streamingSetUp(false),
    expectStreamRequest(request) {
      expect(request?.path).toBe(`/v1beta/models/${MODEL}:streamGenerateContent`);
      expect(request?.headers["x-goog-api-key"]).toBe(EXPRESS_KEY);
    },
  },
]);

describe("Vertex credentials", () => {
  test("a service-account key: the JWT-bearer grant goes to its token_uri, signed by its key, and the token issued is the bearer", async () => {
    const server = await serve();
    server.script({ reply: { text: "BCL2" } }, { reply: { text: "BCL2 again" } });
    const before = account.oauth.exchanges.length;
    const model = ModelConfigSchema.parse({
      id: "m",
      interface: "vertex",
      model_name: MODEL,
      endpoint_base_url: server.url,
    });
    const llm = llmPortFor(model, { env: serviceAccountEnv() });
    expect((await llm.invoke(GENE_QUESTION)).content).toBe("BCL2");
    expect((await llm.invoke(GENE_QUESTION)).content).toBe("BCL2 again");
    const exchanges = account.oauth.exchanges.slice(before);
    expect(exchanges).toHaveLength(1);
    const [exchange] = exchanges;
    expect(exchange).toMatchObject({
      grantType: "urn:ietf:params:oauth:grant-type:jwt-bearer",
      signatureValid: true,
      header: { alg: "RS256" },
      claims: { iss: TEST_CLIENT_EMAIL, scope: "https://www.googleapis.com/auth/cloud-platform" },
    });
    const claims = exchange?.claims as { iat: number; exp: number };
    expect(claims.exp - claims.iat).toBe(3600);
    for (const request of server.requests) {
      expect(request.path).toBe(`${VERTEX_PATH}:generateContent`);
      expect(request.headers.authorization).toBe(`Bearer ${exchange?.issued}`);
    }
  });

  test("a key the token endpoint does not trust is refused there, and no generateContent is sent", async () => {
    const server = await serve();
    const { privateKey } = generateKeyPairSync("rsa", {
      modulusLength: 2048,
      privateKeyEncoding: { type: "pkcs8", format: "pem" },
      publicKeyEncoding: { type: "spki", format: "pem" },
    });
    const forged = join(account.dir, "forged.json");
    await writeFile(
      forged,
      JSON.stringify({
        type: "service_account",
        project_id: PROJECT,
        private_key: privateKey,
        client_email: TEST_CLIENT_EMAIL,
        token_uri: account.oauth.tokenUri,
      }),
    );
    const model = ModelConfigSchema.parse({
      id: "m",
      interface: "vertex",
      model_name: MODEL,
      endpoint_base_url: server.url,
    });
    const llm = llmPortFor(model, {
      env: { ...serviceAccountEnv(), GOOGLE_APPLICATION_CREDENTIALS: forged },
    });
    await expect(llm.invoke(GENE_QUESTION)).rejects.toThrow(/invalid_grant/);
    expect(account.oauth.exchanges.at(-1)).toMatchObject({ signatureValid: false, issued: null });
    expect(server.requests).toHaveLength(0);
  });

  test("express mode: GOOGLE_VERTEX_API_KEY is sent as x-goog-api-key to /v1/publishers/google, with no project and no token", async () => {
    const server = await serve();
    server.script({ reply: { text: "BCL2", usage: { input: 12, output: 1 } } });
    const before = account.oauth.exchanges.length;
    const model = ModelConfigSchema.parse({
      id: "m",
      interface: "vertex",
      model_name: MODEL,
      endpoint_base_url: server.url,
    });
    const response = await llmPortFor(model, { env: { GOOGLE_VERTEX_API_KEY: EXPRESS_KEY } }).invoke(
      GENE_QUESTION,
    );
    expect(response.content).toBe("BCL2");
    expect(response.usage).toMatchObject({ input_tokens: 12, output_tokens: 1 });
    const [request] = server.requests;
    expect(request?.path).toBe(`/v1/publishers/google/models/${MODEL}:generateContent`);
    expect(request?.headers["x-goog-api-key"]).toBe(EXPRESS_KEY);
    expect(request?.headers.authorization).toBeUndefined();
    expect(account.oauth.exchanges.length).toBe(before);
  });

  test("the model's project and location (extra_kwargs, as ChatVertexAI takes them) win over the environment", async () => {
    const server = await serve();
    server.script({ reply: { text: "BCL2" } });
    const model = ModelConfigSchema.parse({
      id: "m",
      interface: "langchain",
      model_provider: "google_vertexai",
      model_name: MODEL,
      endpoint_base_url: server.url,
      extra_kwargs: { project: "other-project", location: "us-east5" },
    });
    await llmPortFor(model, { env: serviceAccountEnv() }).invoke(GENE_QUESTION);
    expect(server.requests[0]?.path).toBe(
      `/v1beta1/projects/other-project/locations/us-east5/publishers/google/models/${MODEL}:generateContent`,
    );
    expect(server.requests[0]?.body).not.toHaveProperty("project");
  });

  test("missing credentials or project fail when the port is made, naming the variables to set", () => {
    const model = ModelConfigSchema.parse({ id: "m", interface: "vertex", model_name: MODEL });
    const failure = (env: Record<string, string>) => {
      try {
        llmPortFor(model, { env });
      } catch (error) {
        return error as Error;
      }
      throw new Error("no error");
    };
    const noCredentials = failure({ GOOGLE_CLOUD_PROJECT: PROJECT, HOME: account.dir });
    expect(noCredentials).toBeInstanceOf(AdapterUnavailableError);
    expect(noCredentials.message).toMatch(/GOOGLE_APPLICATION_CREDENTIALS/);
    expect(noCredentials.message).toMatch(/GOOGLE_VERTEX_API_KEY/);
    expect(noCredentials.message).toMatch(/gcloud auth application-default login/);
    const missingFile = failure({ GOOGLE_APPLICATION_CREDENTIALS: join(account.dir, "absent.json") });
    expect(missingFile).toBeInstanceOf(AdapterUnavailableError);
    expect(missingFile.message).toContain(join(account.dir, "absent.json"));
  });
});

describe("embeddings on Vertex and the Gemini API and OpenRouter", () => {
  const VECTORS = [
    [0.25, 0.5, 0.75],
    [0.75, 0.5, 0.25],
  ];
  const TEXTS = ["venetoclax inhibits BCL2", "BCL2 is inhibited"];

  test("vertex: gemini-embedding-001 through :predict with the service account's token, token counts summed", async () => {
    const server = await serve();
    server.script({
      endpoint: "embeddings",
      match: { model: "gemini-embedding-001" },
      reply: { embeddings: VECTORS, tokens: 9 },
    });
    const model = ModelConfigSchema.parse({
      id: "m",
      interface: "vertex",
      model_name: MODEL,
      endpoint_base_url: server.url,
    });
    const result = await embeddingPortFor(model, "gemini-embedding-001", { env: serviceAccountEnv() }).embed(
      TEXTS,
    );
    expect(result).toEqual({
      embeddings: VECTORS,
      usage: { input_tokens: 9, output_tokens: 0, total_tokens: 9, model: "gemini-embedding-001" },
    });
    const [request] = server.requests;
    expect(request?.path).toBe(
      `/v1beta1/projects/${PROJECT}/locations/${LOCATION}/publishers/google/models/gemini-embedding-001:predict`,
    );
    expect(request?.body.instances).toEqual(TEXTS.map((content) => ({ content })));
    expect(issuedTokens()).toContain(String(request?.headers.authorization).replace(/^Bearer /, ""));
  });

  test("vertex: a 429 on :predict is a rate-limit error with its wait", async () => {
    const server = await serve();
    server.script({ endpoint: "embeddings", reply: { status: 429, retryAfter: 4 } });
    const model = ModelConfigSchema.parse({
      id: "m",
      interface: "vertex",
      model_name: MODEL,
      endpoint_base_url: server.url,
    });
    const port = embeddingPortFor(model, "text-embedding-005", {
      env: { GOOGLE_VERTEX_API_KEY: EXPRESS_KEY },
    });
    const error = await port.embed(TEXTS).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterSeconds).toBe(4);
    expect(server.requests[0]?.path).toBe("/v1/publishers/google/models/text-embedding-005:predict");
  });

  test("google (langchain google_genai): batchEmbedContents with GEMINI_API_KEY; the Gemini API counts no tokens", async () => {
    const server = await serve();
    server.script({
      endpoint: "embeddings",
      match: { model: "gemini-embedding-001" },
      reply: { embeddings: VECTORS },
    });
    const model = ModelConfigSchema.parse({
      id: "m",
      interface: "langchain",
      model_provider: "google_genai",
      model_name: MODEL,
      endpoint_base_url: server.baseURL,
    });
    const result = await embeddingPortFor(model, "gemini-embedding-001", {
      env: { GEMINI_API_KEY: "g-key" },
    }).embed(TEXTS);
    expect(result.embeddings).toEqual(VECTORS);
    expect(result.usage.input_tokens).toBe(0);
    const [request] = server.requests;
    expect(request?.path).toBe("/v1beta/models/gemini-embedding-001:batchEmbedContents");
    expect(request?.headers["x-goog-api-key"]).toBe("g-key");
    expect(request?.body.requests).toEqual(
      TEXTS.map((text) => ({
        model: "models/gemini-embedding-001",
        content: { role: "user", parts: [{ text }] },
      })),
    );
  });

  test("openrouter: its OpenAI-compatible /embeddings with OPENROUTER_API_KEY", async () => {
    const { startChatServer } = await import("../../test-support/provider-servers/index.js");
    const server = await startChatServer("openai");
    try {
      server.script({
        endpoint: "embeddings",
        match: { model: "openai/text-embedding-3-small" },
        reply: { embeddings: VECTORS, tokens: 7 },
      });
      const model = ModelConfigSchema.parse({
        id: "m",
        interface: "openrouter",
        model_name: "openai/gpt-4.1-mini",
        endpoint_base_url: server.baseURL,
      });
      const result = await embeddingPortFor(model, "openai/text-embedding-3-small", {
        env: { OPENROUTER_API_KEY: "or-key" },
      }).embed(TEXTS);
      expect(result).toEqual({
        embeddings: VECTORS,
        usage: { input_tokens: 7, output_tokens: 0, total_tokens: 7, model: "openai/text-embedding-3-small" },
      });
      expect(server.requests[0]?.path).toBe("/v1/embeddings");
      expect(server.requests[0]?.headers.authorization).toBe("Bearer or-key");
    } finally {
      await server.close();
    }
  });
});

test("Vertex Gemini models are priced as on the Gemini API", () => {
  const usage = { input_tokens: 1_000_000, output_tokens: 1_000_000, total_tokens: 2_000_000 };
  expect(costOf({ ...usage, model: "gemini-2.5-flash" })).toBeCloseTo(2.8);
  expect(costOf({ ...usage, model: "gemini-2.5-flash-lite" })).toBeCloseTo(0.5);
  expect(costOf({ ...usage, model: "gemini-2.5-pro" })).toBeCloseTo(11.25);
});

describe("the Vertex package loads only when its model is called", () => {
  const PROBE = fileURLToPath(new URL("./__fixtures__/lazy-vertex-probe.ts", import.meta.url));
  const loaded = (call: string) =>
    watchedPackagesLoadedBy([PROBE, call], ["@ai-sdk/google-vertex", "google-auth-library"]);

  test("ports made but not called load neither @ai-sdk/google-vertex nor google-auth-library; a chat call or an embed loads both", async () => {
    expect(await loaded("none")).toEqual([]);
    expect((await loaded("chat")).sort()).toEqual(["@ai-sdk/google-vertex", "google-auth-library"]);
    expect((await loaded("embed")).sort()).toEqual(["@ai-sdk/google-vertex", "google-auth-library"]);
  }, 90_000);
});
