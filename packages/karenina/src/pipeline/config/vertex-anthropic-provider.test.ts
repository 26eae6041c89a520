import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, test } from "vitest";
import { AdapterUnavailableError } from "../../llm/index.js";
import { GENE_QUESTION } from "../../test-support/gene-question.js";
import { watchedPackagesLoadedBy } from "../../test-support/module-log/index.js";
import {
  type AnthropicTestServer,
  type RecordedRequest,
  startAnthropicServer,
} from "../../test-support/provider-servers/index.js";
import { costOf } from "../pricing.js";
import { describeProviderConformance, describeStreamedAnswer } from "./__fixtures__/provider-conformance.js";
import {
  TEST_CLIENT_EMAIL,
  TEST_PROJECT,
  testServiceAccount,
} from "./__fixtures__/vertex-service-account.js";
import {
  callAdapterFor,
  llmPortFor,
  type ModelConfig,
  ModelConfigSchema,
  type PortRoutingOptions,
} from "./index.js";

const PROJECT = TEST_PROJECT;
const LOCATION = "us-east5";
const MODEL = "claude-sonnet-4-5@20250929";
const VERTEX_PATH = `/v1/projects/${PROJECT}/locations/${LOCATION}/publishers/anthropic/models/${MODEL}`;

const account = testServiceAccount();

let running: AnthropicTestServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function serve() {
  running = await startAnthropicServer();
  return running;
}

const serviceAccountEnv = () => account.env(LOCATION);
const issuedTokens = () => account.issuedTokens();

/** The bearer token of a request was issued by the token endpoint; no Anthropic API key was sent. */
function expectGoogleBearer(request: RecordedRequest | undefined) {
  const bearer = String(request?.headers.authorization).replace(/^Bearer /, "");
  expect(issuedTokens()).toContain(bearer);
  expect(request?.headers["x-api-key"]).toBeUndefined();
}

/** A Claude-on-Vertex model reaching the fake server, as `interface` (or `langchain` with its provider name). */
async function setUp(langchain: boolean) {
  const server = await serve();
  const model = ModelConfigSchema.parse({
    id: "m",
    temperature: 0,
    model_name: MODEL,
    endpoint_base_url: server.url,
    ...(langchain
      ? { interface: "langchain", model_provider: "google_anthropic_vertex" }
      : { interface: "vertex_anthropic" }),
  });
  const options: PortRoutingOptions = { env: serviceAccountEnv() };
  return { server, model, options };
}

describeProviderConformance([
  {
    name: "vertex_anthropic (langchain google_anthropic_vertex, a service-account key from GOOGLE_APPLICATION_CREDENTIALS)",
    adapter: "vertex_anthropic",
    setUp: () => setUp(true),
    expectRequest(request) {
      expect(request?.path).toBe(`${VERTEX_PATH}:rawPredict`);
      expect(request?.body).not.toHaveProperty("model");
      expect(request?.body.anthropic_version).toBe("vertex-2023-10-16");
      expectGoogleBearer(request);
    },
    roles: ["user"],
    structured(body) {
      // Vertex takes no JSON-schema output format for Claude: the package forces its `json` tool.
      expect(body.tools).toMatchObject([
        { name: "json", input_schema: { type: "object", required: ["gene", "confidence"] } },
      ]);
      expect(body.tool_choice).toMatchObject({ type: "any" });
      expect(body).not.toHaveProperty("output_format");
    },
    messagesOf: (body) => body.messages,
    // The forced `json` tool leaves Claude no prose answer to extract from (the package drops text then).
    structuredForcesTool: true,
  },
]);

describeStreamedAnswer([
  {
    name: "vertex_anthropic (a service-account key)",
    setUp: () => setUp(false),
    expectStreamRequest(request) {
      expect(request?.path).toBe(`${VERTEX_PATH}:streamRawPredict`);
      expect(request?.body).toMatchObject({ stream: true, anthropic_version: "vertex-2023-10-16" });
      expect(request?.body).not.toHaveProperty("model");
      expectGoogleBearer(request);
    },
  },
]);

describe("Claude on Vertex: routing and settings", () => {
  const claude = (fields: Record<string, unknown>): ModelConfig =>
    ModelConfigSchema.parse({ id: "m", model_name: MODEL, ...fields });

  test("interface vertex_anthropic and langchain google_anthropic_vertex route to the vertex_anthropic adapter", () => {
    expect(callAdapterFor(claude({ interface: "vertex_anthropic" }))).toBe("vertex_anthropic");
    expect(
      callAdapterFor(claude({ interface: "langchain", model_provider: "google_anthropic_vertex" })),
    ).toBe("vertex_anthropic");
  });

  test("the model's project and location (extra_kwargs, as ChatAnthropicVertex takes them) win over the environment", async () => {
    const server = await serve();
    server.script({ reply: { text: "BCL2" } });
    const model = claude({
      interface: "langchain",
      model_provider: "google_anthropic_vertex",
      endpoint_base_url: server.url,
      extra_kwargs: { project: "other-project", location: "europe-west1" },
    });
    await llmPortFor(model, { env: serviceAccountEnv() }).invoke(GENE_QUESTION);
    expect(server.requests[0]?.path).toBe(
      `/v1/projects/other-project/locations/europe-west1/publishers/anthropic/models/${MODEL}:rawPredict`,
    );
    expect(server.requests[0]?.body).not.toHaveProperty("project");
    expect(server.requests[0]?.body).not.toHaveProperty("location");
  });

  test("a service-account key: one JWT-bearer grant at its token_uri, signed by its key, for two calls", async () => {
    const server = await serve();
    server.script({ reply: { text: "BCL2" } }, { reply: { text: "BCL2 again" } });
    const before = account.oauth.exchanges.length;
    const llm = llmPortFor(claude({ interface: "vertex_anthropic", endpoint_base_url: server.url }), {
      env: serviceAccountEnv(),
    });
    expect((await llm.invoke(GENE_QUESTION)).content).toBe("BCL2");
    expect((await llm.invoke(GENE_QUESTION)).content).toBe("BCL2 again");
    const exchanges = account.oauth.exchanges.slice(before);
    expect(exchanges).toHaveLength(1);
    expect(exchanges[0]).toMatchObject({
      grantType: "urn:ietf:params:oauth:grant-type:jwt-bearer",
      signatureValid: true,
      claims: { iss: TEST_CLIENT_EMAIL, scope: "https://www.googleapis.com/auth/cloud-platform" },
    });
    for (const request of server.requests) {
      expect(request.headers.authorization).toBe(`Bearer ${exchanges[0]?.issued}`);
    }
  });

  const failure = (model: ModelConfig, env: Record<string, string>) => {
    try {
      llmPortFor(model, { env });
    } catch (error) {
      return error as Error;
    }
    throw new Error("no error");
  };

  test("an API key given is refused (no express mode for Claude); GOOGLE_VERTEX_API_KEY alone is no credential", () => {
    const keyed = failure(claude({ interface: "vertex_anthropic", endpoint_api_key: "express-key" }), {
      ...serviceAccountEnv(),
    });
    expect(keyed).toBeInstanceOf(AdapterUnavailableError);
    expect(keyed.message).toMatch(/^vertex_anthropic: Vertex AI serves anthropic models without API keys/);
    expect(keyed.message).toMatch(/GOOGLE_APPLICATION_CREDENTIALS/);
    expect(keyed.message).not.toContain("express-key");
    const envKeyOnly = failure(claude({ interface: "vertex_anthropic" }), {
      GOOGLE_VERTEX_API_KEY: "express-key",
      GOOGLE_CLOUD_PROJECT: PROJECT,
      HOME: account.dir,
    });
    expect(envKeyOnly).toBeInstanceOf(AdapterUnavailableError);
    expect(envKeyOnly.message).toMatch(/^vertex_anthropic needs Google Cloud credentials/);
    expect(envKeyOnly.message).toMatch(/GOOGLE_VERTEX_API_KEY does not reach them/);
    expect(envKeyOnly.message).toMatch(/gcloud auth application-default login/);
  });

  test("missing credentials or project fail when the port is made, naming what to set", async () => {
    const model = claude({ interface: "langchain", model_provider: "google_anthropic_vertex" });
    const noCredentials = failure(model, { GOOGLE_CLOUD_PROJECT: PROJECT, HOME: account.dir });
    expect(noCredentials).toBeInstanceOf(AdapterUnavailableError);
    expect(noCredentials.message).toMatch(/GOOGLE_APPLICATION_CREDENTIALS/);
    expect(noCredentials.message).toMatch(/METADATA_SERVER_DETECTION=assume-present/);
    const keyWithoutProject = join(account.dir, "no-project.json");
    await writeFile(
      keyWithoutProject,
      JSON.stringify({ type: "service_account", private_key: "k", client_email: TEST_CLIENT_EMAIL }),
    );
    const noProject = failure(model, { GOOGLE_APPLICATION_CREDENTIALS: keyWithoutProject });
    expect(noProject).toBeInstanceOf(AdapterUnavailableError);
    expect(noProject.message).toMatch(
      /^vertex_anthropic needs a Google Cloud project: set GOOGLE_VERTEX_PROJECT \(or GOOGLE_CLOUD_PROJECT\)/,
    );
    const missingFile = failure(model, { GOOGLE_APPLICATION_CREDENTIALS: join(account.dir, "absent.json") });
    expect(missingFile.message).toContain(join(account.dir, "absent.json"));
  });

  test("a 529 (overloaded) from Vertex is an error naming the status, not an answer", async () => {
    const server = await serve();
    server.script({ reply: { status: 529, message: "Overloaded" } });
    const llm = llmPortFor(claude({ interface: "vertex_anthropic", endpoint_base_url: server.url }), {
      env: serviceAccountEnv(),
    });
    await expect(llm.invoke(GENE_QUESTION)).rejects.toThrow(/Overloaded/);
    expect(server.requests[0]?.path).toBe(`${VERTEX_PATH}:rawPredict`);
  });
});

test("Claude on Vertex is priced as on Anthropic's API: a versioned id as the name before the @", () => {
  const usage = { input_tokens: 1_000_000, output_tokens: 1_000_000, total_tokens: 2_000_000 };
  expect(costOf({ ...usage, model: "claude-sonnet-4-5@20250929" })).toBeCloseTo(18);
  expect(costOf({ ...usage, model: "claude-haiku-4-5@20251001" })).toBeCloseTo(6);
  expect(costOf({ ...usage, model: "claude-opus-4-1@20250805" })).toBeCloseTo(90);
  expect(costOf({ ...usage, model: "claude-unknown-9@20990101" })).toBeNull();
  // A price file may list the versioned id itself; its own row wins.
  const table = { "claude-sonnet-4-5@20250929": { input_per_million: 1, output_per_million: 1 } };
  expect(costOf({ ...usage, model: "claude-sonnet-4-5@20250929" }, table)).toBeCloseTo(2);
});

describe("the Vertex package loads only when a Claude model is called", () => {
  const PROBE = fileURLToPath(new URL("./__fixtures__/lazy-vertex-anthropic-probe.ts", import.meta.url));
  const loaded = (call: string) =>
    watchedPackagesLoadedBy([PROBE, call], ["@ai-sdk/google-vertex", "google-auth-library"]);

  test("a port made but not called loads neither @ai-sdk/google-vertex nor google-auth-library; a call loads both", async () => {
    expect(await loaded("none")).toEqual([]);
    expect((await loaded("chat")).sort()).toEqual(["@ai-sdk/google-vertex", "google-auth-library"]);
  }, 90_000);
});
