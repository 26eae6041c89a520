/** The openai_endpoint adapter over real HTTP, against the scripted local server (hand-written replies). */
import { describe, expect, test } from "vitest";
import { GENE_QUESTION, GeneAnswer } from "../../test-support/gene-question.js";
import { startOpenAiServer } from "../../test-support/openai-server/index.js";
import { serverPerTest } from "../../test-support/server-per-test.js";
import {
  AdapterUnavailableError,
  finalizeBaseUrl,
  LlmAbortedError,
  LlmCallError,
  LlmTimeoutError,
  openAiEndpointLlm,
  openAiEndpointParser,
  ParseError,
  RateLimitError,
  userMessage,
} from "../index.js";

const server = serverPerTest(startOpenAiServer);

const settings = () => ({ baseURL: server.url, apiKey: "sk-test", modelName: "judge-1", temperature: 0 });

describe("openai_endpoint LlmPort", () => {
  test("returns the reply text and the reported usage", async () => {
    server.script({ reply: { text: "BCL2", usage: { prompt_tokens: 20, completion_tokens: 3 } } });
    const response = await openAiEndpointLlm(settings()).invoke(GENE_QUESTION);
    expect(response).toEqual({
      content: "BCL2",
      usage: { input_tokens: 20, output_tokens: 3, total_tokens: 23, model: "judge-1" },
      isPartial: false,
      usageUnavailable: false,
    });
    const [request] = server.requests;
    expect(request?.path).toBe("/v1/chat/completions");
    expect(request?.headers.authorization).toBe("Bearer sk-test");
    expect(request?.body).toMatchObject({ model: "judge-1", temperature: 0 });
    expect(request?.body.messages).toEqual([
      { role: "system", content: "You are a judge." },
      { role: "user", content: "Extract the gene from: BCL2 is the target." },
    ]);
  });

  test("answers by model and by the last user message when scripted so", async () => {
    server.script(
      { match: { lastUserIncludes: "second" }, reply: { text: "two" } },
      { match: { model: "judge-1" }, reply: { text: "one" } },
    );
    const llm = openAiEndpointLlm(settings());
    expect((await llm.invoke([userMessage("first")])).content).toBe("one");
    expect((await llm.invoke([userMessage("the second")])).content).toBe("two");
  });

  test("a call slower than its timeout fails with LlmTimeoutError", async () => {
    server.script({ reply: { text: "late", delayMs: 2_000 } });
    const llm = openAiEndpointLlm({ ...settings(), requestTimeoutMs: 100 });
    const error = await llm.invoke(GENE_QUESTION).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmTimeoutError);
    expect(error).toMatchObject({ category: "timeout", timeoutMs: 100, retryable: true });
  });

  test("a call aborted by the caller fails with LlmAbortedError, not a timeout", async () => {
    server.script({ reply: { text: "late", delayMs: 2_000 } });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const error = await openAiEndpointLlm(settings())
      .invoke(GENE_QUESTION, { signal: controller.signal })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmAbortedError);
  });

  test("HTTP 429 surfaces as a RateLimitError carrying Retry-After", async () => {
    server.script({ reply: { status: 429, retryAfter: 7, message: "slow down" } });
    const error = await openAiEndpointLlm(settings())
      .invoke(GENE_QUESTION)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ category: "rate_limit", statusCode: 429, retryAfterSeconds: 7 });
    expect(server.requests).toHaveLength(1);
  });

  test("HTTP 503 is a retryable server error; HTTP 401 is permanent", async () => {
    server.script({ reply: { status: 503 } }, { reply: { status: 401 } });
    const llm = openAiEndpointLlm(settings());
    const unavailable = await llm.invoke(GENE_QUESTION).catch((e: unknown) => e);
    const unauthorised = await llm.invoke(GENE_QUESTION).catch((e: unknown) => e);
    expect(unavailable).toMatchObject({ category: "server_error", statusCode: 503 });
    expect(unauthorised).toBeInstanceOf(LlmCallError);
    expect(unauthorised).toMatchObject({ category: "permanent", retryable: false });
  });

  test("a missing key or base URL makes the adapter unavailable", () => {
    expect(() => openAiEndpointLlm({ ...settings(), apiKey: "" })).toThrow(AdapterUnavailableError);
    expect(() => openAiEndpointLlm({ ...settings(), baseURL: "" })).toThrow(/endpoint_base_url/);
  });
});

describe("openai_endpoint ParserPort", () => {
  test("uses native structured output with the template's JSON Schema", async () => {
    server.script({ reply: { json: { gene: "BCL2", confidence: 0.9 } } });
    const result = await openAiEndpointParser(settings()).parse(GENE_QUESTION, GeneAnswer);
    expect(result.parsed).toEqual({ gene: "BCL2", confidence: 0.9 });
    expect(result.strategy).toBe("native");
    const format = server.requests[0]?.body.response_format as Record<string, unknown>;
    expect(format.type).toBe("json_schema");
    expect(format.json_schema).toMatchObject({
      name: "Answer",
      schema: { type: "object", required: ["gene", "confidence"] },
    });
  });

  test("falls back to the fenced JSON of a server that ignores response_format", async () => {
    server.script({ reply: { text: 'Here it is:\n```json\n{"gene": "BCL2", "confidence": 0.5}\n```' } });
    const result = await openAiEndpointParser(settings()).parse(GENE_QUESTION, GeneAnswer);
    expect(result).toMatchObject({ parsed: { gene: "BCL2", confidence: 0.5 }, strategy: "extracted" });
    expect(server.requests).toHaveLength(1);
  });

  test("repairs Python-flavoured JSON without another call", async () => {
    server.script({ reply: { text: "{'gene': 'BCL2', 'confidence': 1,}" } });
    const result = await openAiEndpointParser(settings()).parse(GENE_QUESTION, GeneAnswer);
    expect(result).toMatchObject({ parsed: { gene: "BCL2", confidence: 1 }, strategy: "repaired" });
  });

  test("retries once with the validation error, summing usage", async () => {
    server.script(
      { reply: { json: { gene: "BCL2" }, usage: { prompt_tokens: 10, completion_tokens: 4 } } },
      {
        reply: {
          json: { gene: "BCL2", confidence: 0.8 },
          usage: { prompt_tokens: 30, completion_tokens: 6 },
        },
      },
    );
    const result = await openAiEndpointParser(settings()).parse(GENE_QUESTION, GeneAnswer);
    expect(result).toMatchObject({ parsed: { gene: "BCL2", confidence: 0.8 }, strategy: "feedback_retry" });
    expect(result.usage).toMatchObject({ input_tokens: 40, output_tokens: 10, total_tokens: 50 });
    const retry = server.requests[1]?.body.messages as { role: string; content: string }[];
    expect(retry.at(-2)).toEqual({ role: "assistant", content: '{"gene":"BCL2"}' });
    expect(retry.at(-1)?.content).toContain("confidence: missing required field");
  });

  test("keeps the judge's raw text when nothing valid comes back", async () => {
    server.script({ reply: { text: "I cannot answer." } }, { reply: { text: "Still no JSON, sorry." } });
    const error = await openAiEndpointParser(settings())
      .parse(GENE_QUESTION, GeneAnswer)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ParseError);
    expect(error).toMatchObject({ rawResponse: "Still no JSON, sorry." });
    expect((error as ParseError).usage.total_tokens).toBe(36);
    expect(server.requests).toHaveLength(2);
  });

  test("asks again without response_format when the server rejects it", async () => {
    server.script({ reply: { status: 400, message: "response_format not supported" } });
    server.script({ reply: { text: '{"gene": "TP53", "confidence": 0.2}' } });
    const result = await openAiEndpointParser(settings()).parse(GENE_QUESTION, GeneAnswer);
    expect(result.parsed.gene).toBe("TP53");
    expect(server.requests[1]?.body.response_format).toBeUndefined();
  });

  test("rate limits are thrown for the retry policy, not parsed around", async () => {
    server.script({ reply: { status: 429 } });
    const error = await openAiEndpointParser(settings())
      .parse(GENE_QUESTION, GeneAnswer)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ retryAfterSeconds: null });
  });
});

test("the base URL gains /v1 unless present or raw mode is asked", () => {
  expect(finalizeBaseUrl("http://h:8000/")).toBe("http://h:8000/v1");
  expect(finalizeBaseUrl("http://h:8000/v1/")).toBe("http://h:8000/v1");
  expect(finalizeBaseUrl("http://h:8000/api/", "raw")).toBe("http://h:8000/api");
});

test("the test server answers embeddings with deterministic vectors", async () => {
  const response = await fetch(`${server.baseURL}/embeddings`, {
    method: "POST",
    body: JSON.stringify({ model: "embed", input: ["a", "a"] }),
  });
  const body = (await response.json()) as { data: { embedding: number[] }[] };
  expect(body.data).toHaveLength(2);
  expect(body.data[0]?.embedding).toEqual(body.data[1]?.embedding);
});
