/**
 * Amazon Bedrock (Converse API, SigV4 or a Bedrock API key) and Cohere (v2 chat API) through their AI SDK
 * packages, over real HTTP against fake APIs on 127.0.0.1 speaking each wire format (hand-written replies):
 * each answers, gives structured judge output, calls a tool, has a 429 retried after its `retry-after`, counts
 * usage, and streams (Bedrock's ConverseStream in the AWS event stream, Cohere's typed server-sent events);
 * `langchain` provider names route to them; keys and regions come from the environment.
 */
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, test } from "vitest";
import { AdapterUnavailableError, bedrockConnection } from "../../llm/index.js";
import { GENE_QUESTION, GeneAnswer } from "../../test-support/gene-question.js";
import { watchedPackagesLoadedBy } from "../../test-support/module-log/index.js";
import {
  type ChatRule,
  type RecordedRequest,
  startBedrockServer,
  startCohereServer,
} from "../../test-support/provider-servers/index.js";
import type { ScriptedHttpServer } from "../../test-support/scripted-http.js";
import { costOf } from "../pricing.js";
import { describeProviderConformance, describeStreamedAnswer } from "./__fixtures__/provider-conformance.js";
import {
  callAdapterFor,
  languageModelFor,
  llmPortFor,
  ModelConfigSchema,
  type PortRoutingOptions,
  parserPortFor,
} from "./index.js";

const ACCESS_KEY_ID = "AKIAHANDWRITTENTEST1";
const SECRET_ACCESS_KEY = "bedrock-test-secret-access-key-42";
const SESSION_TOKEN = "bedrock-test-session-token-42";
const COHERE_KEY = "co-test-secret-42";
const NOVA = "amazon.nova-pro-v1:0";

type Server = ScriptedHttpServer<ChatRule>;

/** A provider under test: its fake API, the model config and environment reaching it, its request's shape. */
interface ProviderCase {
  name: string;
  start: () => Promise<Server>;
  model: (server: Server) => Record<string, unknown>;
  env: (server: Server) => Record<string, string>;
  adapter: string;
  /** What every request must look like: path and credentials. */
  expectRequest: (request: RecordedRequest | undefined) => void;
  /** What a streamed request must look like. */
  expectStreamRequest: (request: RecordedRequest | undefined) => void;
  /** The roles of the messages a plain call sends (Bedrock sends the system prompt beside them). */
  roles: string[];
  /** What a structured call asks of the API. */
  structured: (body: Record<string, unknown>) => void;
  /** The messages of a request, where the tool result must appear. */
  messagesOf: (body: Record<string, unknown>) => unknown;
}

/** A SigV4 signature with the environment's access key, region and session token. */
function expectSigned(request: RecordedRequest | undefined) {
  const authorization = String(request?.headers.authorization);
  expect(authorization).toMatch(
    new RegExp(`^AWS4-HMAC-SHA256 Credential=${ACCESS_KEY_ID}/\\d{8}/eu-west-3/bedrock/aws4_request, `),
  );
  expect(authorization).toMatch(/SignedHeaders=[^,]*x-amz-date[^,]*, Signature=[0-9a-f]{64}$/);
  expect(request?.headers["x-amz-security-token"]).toBe(SESSION_TOKEN);
  expect(request?.headers["x-amz-date"]).toMatch(/^\d{8}T\d{6}Z$/);
}

const CASES: ProviderCase[] = [
  {
    name: "bedrock (langchain bedrock_converse, SigV4 with the environment's keys and region)",
    start: () => startBedrockServer(),
    model: () => ({ interface: "langchain", model_provider: "bedrock_converse", model_name: NOVA }),
    env: (server) => ({
      AWS_REGION: "eu-west-3",
      AWS_ACCESS_KEY_ID: ACCESS_KEY_ID,
      AWS_SECRET_ACCESS_KEY: SECRET_ACCESS_KEY,
      AWS_SESSION_TOKEN: SESSION_TOKEN,
      AWS_ENDPOINT_URL_BEDROCK_RUNTIME: server.url,
    }),
    adapter: "bedrock",
    expectRequest(request) {
      expect(request?.path).toBe(`/model/${encodeURIComponent(NOVA)}/converse`);
      expectSigned(request);
    },
    expectStreamRequest(request) {
      expect(request?.path).toBe(`/model/${encodeURIComponent(NOVA)}/converse-stream`);
      expectSigned(request);
    },
    roles: ["user"],
    structured(body) {
      const config = body.toolConfig as {
        tools: { toolSpec: Record<string, unknown> }[];
        toolChoice: unknown;
      };
      expect(config.tools.map((t) => t.toolSpec.name)).toEqual(["json"]);
      expect(config.tools[0]?.toolSpec.inputSchema).toMatchObject({
        json: { type: "object", required: ["gene", "confidence"] },
      });
      expect(config.toolChoice).toEqual({ any: {} });
    },
    messagesOf: (body) => body.messages,
  },
  {
    name: "cohere (key from CO_API_KEY)",
    start: () => startCohereServer(),
    model: (server) => ({
      interface: "cohere",
      model_name: "command-r-08-2024",
      endpoint_base_url: server.url,
    }),
    env: () => ({ CO_API_KEY: COHERE_KEY }),
    adapter: "cohere",
    expectRequest(request) {
      expect(request?.path).toBe("/v2/chat");
      expect(request?.headers.authorization).toBe(`Bearer ${COHERE_KEY}`);
      expect(request?.body.model).toBe("command-r-08-2024");
    },
    expectStreamRequest(request) {
      expect(request?.path).toBe("/v2/chat");
      expect(request?.headers.authorization).toBe(`Bearer ${COHERE_KEY}`);
      expect(request?.body.stream).toBe(true);
    },
    roles: ["system", "user"],
    structured(body) {
      expect(body.response_format).toMatchObject({
        type: "json_object",
        json_schema: { type: "object", required: ["gene", "confidence"] },
      });
    },
    messagesOf: (body) => body.messages,
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
  const model = ModelConfigSchema.parse({ id: "m", temperature: 0, ...providerCase.model(server) });
  const options: PortRoutingOptions = { env: providerCase.env(server) };
  return { server, model, options };
}

describeProviderConformance(
  CASES.map((providerCase) => ({
    ...providerCase,
    setUp: () => setUp(providerCase),
    expectRequest: providerCase.expectRequest,
  })),
);

describeStreamedAnswer(
  CASES.map((providerCase) => ({
    name: providerCase.name,
    setUp: () => setUp(providerCase),
    expectStreamRequest: providerCase.expectStreamRequest,
  })),
);

describe("Bedrock's credentials, region and endpoint", () => {
  test("a Bedrock API key in AWS_BEARER_TOKEN_BEDROCK is sent as a bearer token instead of a signature", async () => {
    const server = await startBedrockServer();
    running = server;
    server.script({ reply: { text: "BCL2" } });
    const model = ModelConfigSchema.parse({ id: "m", interface: "bedrock", model_name: NOVA });
    const env = { AWS_BEARER_TOKEN_BEDROCK: "bedrock-api-key-42", AWS_ENDPOINT_URL: `${server.url}/` };
    const response = await llmPortFor(model, { env }).invoke(GENE_QUESTION);
    expect(response.content).toBe("BCL2");
    expect(server.requests[0]?.headers.authorization).toBe("Bearer bedrock-api-key-42");
    expect(server.requests[0]?.headers["x-amz-date"]).toBeUndefined();
  });

  test("keys, region and endpoint given in extra_kwargs as LangChain takes them win over the environment", async () => {
    const server = await startBedrockServer();
    running = server;
    server.script({ reply: { text: "BCL2" } });
    const model = ModelConfigSchema.parse({
      id: "m",
      interface: "langchain",
      model_provider: "bedrock",
      model_name: NOVA,
      extra_kwargs: {
        region_name: "us-west-2",
        aws_access_key_id: ACCESS_KEY_ID,
        aws_secret_access_key: SECRET_ACCESS_KEY,
        endpoint_url: server.url,
        additional_model_request_fields: { inferenceConfig: { topK: 20 } },
      },
    });
    const env = { AWS_REGION: "eu-west-3", AWS_SESSION_TOKEN: "a-token-of-other-keys" };
    await llmPortFor(model, { env }).invoke(GENE_QUESTION);
    const request = server.requests[0];
    expect(String(request?.headers.authorization)).toContain(`/us-west-2/bedrock/aws4_request`);
    expect(request?.headers["x-amz-security-token"]).toBeUndefined();
    expect(request?.body.additionalModelRequestFields).toEqual({ inferenceConfig: { topK: 20 } });
    expect(JSON.stringify(request?.body)).not.toContain("aws_secret_access_key");
  });

  test("a Claude model on Bedrock is asked for Claude's native JSON-schema output", async () => {
    const server = await startBedrockServer();
    running = server;
    server.script({ reply: { json: { gene: "BCL2", confidence: 0.8 } } });
    const claude = "us.anthropic.claude-sonnet-4-5-20250929-v1:0";
    const model = ModelConfigSchema.parse({ id: "m", interface: "bedrock", model_name: claude });
    const env = { AWS_BEARER_TOKEN_BEDROCK: "k", AWS_ENDPOINT_URL: server.url };
    const result = await parserPortFor(model, { env }).parse(GENE_QUESTION, GeneAnswer);
    expect(result).toMatchObject({ parsed: { gene: "BCL2", confidence: 0.8 }, strategy: "native" });
    expect(server.requests[0]?.path).toBe(`/model/${encodeURIComponent(claude)}/converse`);
    expect(server.requests[0]?.body.additionalModelRequestFields).toMatchObject({
      output_config: { format: { type: "json_schema" } },
    });
  });

  test("without an endpoint the region names it", () => {
    const connection = bedrockConnection({
      modelName: NOVA,
      env: { AWS_DEFAULT_REGION: "ap-southeast-2", AWS_ACCESS_KEY_ID: "a", AWS_SECRET_ACCESS_KEY: "s" },
    });
    expect(connection.baseURL).toBe("https://bedrock-runtime.ap-southeast-2.amazonaws.com");
    expect(connection.region).toBe("ap-southeast-2");
  });

  test.each([
    ["no credentials", { AWS_REGION: "us-east-1" }, /AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY/],
    ["an access key without its secret", { AWS_REGION: "us-east-1", AWS_ACCESS_KEY_ID: "a" }, /AWS_SECRET/],
    ["no region", { AWS_ACCESS_KEY_ID: "a", AWS_SECRET_ACCESS_KEY: "s" }, /AWS_REGION/],
  ])("%s: the model is refused before any call, naming what to set", (_, env, message) => {
    const model = ModelConfigSchema.parse({ id: "m", interface: "bedrock", model_name: NOVA });
    expect(() => languageModelFor(model, { env })).toThrow(AdapterUnavailableError);
    expect(() => languageModelFor(model, { env })).toThrow(message);
  });

  test("an AWS profile is refused with how to export its keys, not silently ignored", () => {
    const model = ModelConfigSchema.parse({
      id: "m",
      interface: "bedrock",
      model_name: NOVA,
      extra_kwargs: { credentials_profile_name: "research" },
    });
    expect(() => languageModelFor(model, { env: { AWS_REGION: "us-east-1" } })).toThrow(/export-credentials/);
  });

  test("an error the service echoes the secret key into is redacted", async () => {
    const server = await startBedrockServer();
    running = server;
    server.script({ reply: { status: 403, message: `The security token ${SESSION_TOKEN} is invalid.` } });
    const model = ModelConfigSchema.parse({ id: "m", interface: "bedrock", model_name: NOVA });
    const env = {
      AWS_REGION: "us-east-1",
      AWS_ACCESS_KEY_ID: ACCESS_KEY_ID,
      AWS_SECRET_ACCESS_KEY: SECRET_ACCESS_KEY,
      AWS_SESSION_TOKEN: SESSION_TOKEN,
      AWS_ENDPOINT_URL: server.url,
    };
    const error = await llmPortFor(model, { env })
      .invoke(GENE_QUESTION)
      .catch((e: unknown) => e);
    expect((error as Error).message).toContain("HTTP 403");
    expect((error as Error).message).not.toContain(SESSION_TOKEN);
  });
});

describe("Cohere's key and URL", () => {
  test("langchain + cohere reads COHERE_API_KEY and a CO_API_URL host, to which /v2 is added", async () => {
    const server = await startCohereServer();
    running = server;
    server.script({ reply: { text: "BCL2", usage: { input: 9, output: 1 } } });
    const model = ModelConfigSchema.parse({
      id: "m",
      interface: "langchain",
      model_provider: "cohere",
      model_name: "command-a-03-2025",
    });
    const env = { COHERE_API_KEY: COHERE_KEY, CO_API_KEY: "the-other-key", CO_API_URL: `${server.url}/` };
    const response = await llmPortFor(model, { env }).invoke(GENE_QUESTION);
    expect(response).toMatchObject({ content: "BCL2", usage: { input_tokens: 9, output_tokens: 1 } });
    expect(server.requests[0]?.path).toBe("/v2/chat");
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${COHERE_KEY}`);
  });

  test("without a key the adapter names the variables to set", () => {
    const model = ModelConfigSchema.parse({ id: "m", interface: "cohere", model_name: "command-r-08-2024" });
    expect(() => languageModelFor(model, { env: {} })).toThrow(/COHERE_API_KEY \(or CO_API_KEY\)/);
  });
});

describe("langchain provider names and prices", () => {
  test.each([
    ["bedrock", "bedrock"],
    ["bedrock_converse", "bedrock"],
    ["cohere", "cohere"],
  ])("model_provider %s runs on the %s adapter", (provider, adapter) => {
    const model = ModelConfigSchema.parse({
      id: "m",
      interface: "langchain",
      model_provider: provider,
      model_name: "x",
    });
    expect(callAdapterFor(model)).toBe(adapter);
  });

  test.each([
    ["anthropic.claude-sonnet-4-5-20250929-v1:0", 3, 15],
    ["us.anthropic.claude-sonnet-4-5-20250929-v1:0", 3, 15],
    ["amazon.nova-pro-v1:0", 0.8, 3.2],
    ["command-a-03-2025", 2.5, 10],
    ["command-r-08-2024", 0.15, 0.6],
  ])("%s is priced at $%s / $%s per million tokens", (name, input, output) => {
    const usage = { input_tokens: 1_000_000, output_tokens: 1_000_000, total_tokens: 2_000_000, model: name };
    expect(costOf(usage)).toBeCloseTo(input + output, 6);
  });
});

describe("the Bedrock and Cohere packages load only when their model is called", () => {
  const PROBE = fileURLToPath(new URL("./__fixtures__/lazy-bedrock-cohere-probe.ts", import.meta.url));
  const loaded = (provider: string) =>
    watchedPackagesLoadedBy([PROBE, provider], ["@ai-sdk/amazon-bedrock", "@ai-sdk/cohere"]);

  test("with both models built, calling Bedrock loads @ai-sdk/amazon-bedrock alone, calling Cohere @ai-sdk/cohere alone", async () => {
    expect(await loaded("bedrock")).toEqual(["@ai-sdk/amazon-bedrock"]);
    expect(await loaded("cohere")).toEqual(["@ai-sdk/cohere"]);
  }, 60_000);
});
