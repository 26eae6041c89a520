/** The anthropic adapter over real HTTP, through @ai-sdk/anthropic, against a fake Messages API (hand-written replies). */
import { describe, expect, test } from "vitest";
import { GENE_QUESTION, GeneAnswer } from "../../test-support/gene-question.js";
import { startAnthropicServer } from "../../test-support/provider-servers/index.js";
import { serverPerTest } from "../../test-support/server-per-test.js";
import {
  AdapterUnavailableError,
  anthropicLlm,
  anthropicParser,
  LlmCallError,
  RateLimitError,
} from "../index.js";

const KEY = "sk-ant-test-secret-123";

const server = serverPerTest(startAnthropicServer);

const settings = (modelName = "gateway-model") => ({
  modelName,
  apiKey: KEY,
  baseURL: server.url,
  env: {},
  temperature: 0,
  maxTokens: 512,
});

describe("anthropic LlmPort", () => {
  test("sends the key as x-api-key and the system text apart, and returns text and usage", async () => {
    server.script({ reply: { text: "BCL2", usage: { input: 21, output: 2 } } });
    const response = await anthropicLlm(settings()).invoke(GENE_QUESTION);
    expect(response).toEqual({
      content: "BCL2",
      usage: { input_tokens: 21, output_tokens: 2, total_tokens: 23, model: "gateway-model" },
      isPartial: false,
      usageUnavailable: false,
    });
    const [request] = server.requests;
    expect(request?.path).toBe("/v1/messages");
    expect(request?.headers["x-api-key"]).toBe(KEY);
    expect(request?.headers.authorization).toBeUndefined();
    expect(request?.body).toMatchObject({ model: "gateway-model", max_tokens: 512, temperature: 0 });
    expect(request?.body.system).toEqual([{ type: "text", text: "You are a judge." }]);
    expect(request?.body.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "Extract the gene from: BCL2 is the target." }] },
    ]);
  });

  test("the key comes from ANTHROPIC_API_KEY of the given environment when the model has none", async () => {
    server.script({ reply: { text: "ok" } });
    const llm = anthropicLlm({ ...settings(), apiKey: null, env: { ANTHROPIC_API_KEY: "sk-from-env" } });
    await llm.invoke(GENE_QUESTION);
    expect(server.requests[0]?.headers["x-api-key"]).toBe("sk-from-env");
  });

  test("without any key the adapter is unavailable and names the variable to set", () => {
    const error = (() => {
      try {
        anthropicLlm({ ...settings(), apiKey: null, env: {} });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(AdapterUnavailableError);
    expect((error as Error).message).toMatch(/ANTHROPIC_API_KEY/);
    expect((error as Error).message).toMatch(/anthropic_api_key/);
  });

  test("a gateway URL without /v1 gets it, as the Anthropic SDKs do", async () => {
    server.script({ reply: { text: "ok" } });
    await anthropicLlm({ ...settings(), baseURL: `${server.url}/` }).invoke(GENE_QUESTION);
    expect(server.requests[0]?.path).toBe("/v1/messages");
  });

  test("HTTP 429 is a RateLimitError with Retry-After; HTTP 500 a retryable server error", async () => {
    server.script(
      { reply: { status: 429, retryAfter: 12, message: "slow down" } },
      { reply: { status: 500 } },
    );
    const llm = anthropicLlm(settings());
    const limited = await llm.invoke(GENE_QUESTION).catch((e: unknown) => e);
    const broken = await llm.invoke(GENE_QUESTION).catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(RateLimitError);
    expect(limited).toMatchObject({ statusCode: 429, retryAfterSeconds: 12 });
    expect(broken).toBeInstanceOf(LlmCallError);
    expect(broken).toMatchObject({ category: "server_error", statusCode: 500, retryable: true });
  });

  test("a server echoing the key in its error never puts the key in the error message", async () => {
    server.script({ reply: { status: 401, message: `invalid x-api-key ${KEY}` } });
    const error = (await anthropicLlm(settings())
      .invoke(GENE_QUESTION)
      .catch((e: unknown) => e)) as LlmCallError;
    expect(error).toBeInstanceOf(LlmCallError);
    expect(error.category).toBe("permanent");
    expect(error.message).toContain("[redacted]");
    expect(error.message).not.toContain(KEY);
    expect(String(error.stack)).not.toContain(KEY);
    expect(error.cause).toBeUndefined();
  });
});

describe("anthropic ParserPort", () => {
  test("a model without native structured output gets the forced json tool and its input is the object", async () => {
    server.script({ reply: { json: { gene: "BCL2", confidence: 0.9 } } });
    const result = await anthropicParser(settings()).parse(GENE_QUESTION, GeneAnswer);
    expect(result).toMatchObject({ parsed: { gene: "BCL2", confidence: 0.9 }, strategy: "native" });
    const tools = server.requests[0]?.body.tools as { name: string; input_schema: unknown }[];
    expect(tools.map((t) => t.name)).toEqual(["json"]);
    expect(tools[0]?.input_schema).toMatchObject({ required: ["gene", "confidence"] });
  });

  test("a Claude model with structured outputs gets the JSON-schema output format", async () => {
    server.script({ reply: { json: { gene: "TP53", confidence: 0.4 } } });
    const result = await anthropicParser(settings("claude-sonnet-4-5")).parse(GENE_QUESTION, GeneAnswer);
    expect(result.parsed).toEqual({ gene: "TP53", confidence: 0.4 });
    const body = server.requests[0]?.body as {
      output_config?: { format?: { type?: string } };
      tools?: unknown;
    };
    expect(body.output_config?.format?.type).toBe("json_schema");
    expect(body.tools).toBeUndefined();
  });

  test("a text reply with fenced JSON is extracted; a bad one is retried once with the error", async () => {
    server.script(
      { reply: { text: 'Sure:\n```json\n{"gene": "EGFR"}\n```' } },
      { reply: { text: '{"gene": "EGFR", "confidence": 1}' } },
    );
    const result = await anthropicParser(settings("claude-sonnet-4-5")).parse(GENE_QUESTION, GeneAnswer);
    expect(result).toMatchObject({ parsed: { gene: "EGFR", confidence: 1 }, strategy: "feedback_retry" });
    const retry = server.requests[1]?.body.messages as { role: string; content: { text: string }[] }[];
    expect(retry.at(-1)?.content[0]?.text).toContain("confidence: missing required field");
  });
});
