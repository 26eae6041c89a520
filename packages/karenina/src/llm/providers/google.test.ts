/** The google adapter over real HTTP, through @ai-sdk/google, against a fake Gemini API (hand-written replies). */
import { describe, expect, test } from "vitest";
import { GENE_QUESTION, GeneAnswer } from "../../test-support/gene-question.js";
import { startGoogleServer } from "../../test-support/provider-servers/index.js";
import { serverPerTest } from "../../test-support/server-per-test.js";
import { AdapterUnavailableError, googleLlm, googleParser, LlmCallError, RateLimitError } from "../index.js";

const KEY = "AIza-test-secret-456";

const server = serverPerTest(startGoogleServer);

const settings = () => ({
  modelName: "gemini-test",
  apiKey: KEY,
  baseURL: server.baseURL,
  env: {},
  temperature: 0,
});

describe("google LlmPort", () => {
  test("posts generateContent with the key in x-goog-api-key and returns text and usage", async () => {
    server.script({ reply: { text: "BCL2", usage: { input: 30, output: 2 } } });
    const response = await googleLlm(settings()).invoke(GENE_QUESTION);
    expect(response).toMatchObject({
      content: "BCL2",
      usage: { input_tokens: 30, output_tokens: 2, total_tokens: 32, model: "gemini-test" },
      usageUnavailable: false,
    });
    const [request] = server.requests;
    expect(request?.path).toBe("/v1beta/models/gemini-test:generateContent");
    expect(request?.headers["x-goog-api-key"]).toBe(KEY);
    expect(request?.body.systemInstruction).toEqual({ parts: [{ text: "You are a judge." }] });
    expect(request?.body.contents).toEqual([
      { role: "user", parts: [{ text: "Extract the gene from: BCL2 is the target." }] },
    ]);
    expect(request?.body.generationConfig).toMatchObject({ temperature: 0 });
  });

  test("the key falls back to GOOGLE_GENERATIVE_AI_API_KEY, then GEMINI_API_KEY", async () => {
    server.script({ reply: { text: "a" } }, { reply: { text: "b" } });
    await googleLlm({ ...settings(), apiKey: undefined, env: { GEMINI_API_KEY: "gemini-key" } }).invoke(
      GENE_QUESTION,
    );
    await googleLlm({
      ...settings(),
      apiKey: undefined,
      env: { GEMINI_API_KEY: "gemini-key", GOOGLE_GENERATIVE_AI_API_KEY: "genai-key" },
    }).invoke(GENE_QUESTION);
    expect(server.requests.map((r) => r.headers["x-goog-api-key"])).toEqual(["gemini-key", "genai-key"]);
  });

  test("without any key the adapter is unavailable and names the variables to set", () => {
    expect(() => googleLlm({ ...settings(), apiKey: null, env: {} })).toThrow(AdapterUnavailableError);
    expect(() => googleLlm({ ...settings(), apiKey: null, env: {} })).toThrow(
      /GOOGLE_GENERATIVE_AI_API_KEY \(or GEMINI_API_KEY/,
    );
  });

  test("RESOURCE_EXHAUSTED (429) is a RateLimitError with Retry-After; INTERNAL (500) is retryable", async () => {
    server.script({ reply: { status: 429, retryAfter: 3 } }, { reply: { status: 500 } });
    const llm = googleLlm(settings());
    const limited = await llm.invoke(GENE_QUESTION).catch((e: unknown) => e);
    const broken = await llm.invoke(GENE_QUESTION).catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(RateLimitError);
    expect(limited).toMatchObject({ retryAfterSeconds: 3 });
    expect(broken).toMatchObject({ category: "server_error", statusCode: 500 });
  });

  test("the key never appears in an error message, even when the server echoes it", async () => {
    server.script(
      { reply: { status: 400, message: `API key not valid: ${KEY}` } },
      { reply: { status: 400 } },
    );
    const error = (await googleLlm(settings())
      .invoke(GENE_QUESTION)
      .catch((e: unknown) => e)) as LlmCallError;
    expect(error).toBeInstanceOf(LlmCallError);
    expect(error.message).not.toContain(KEY);
    expect(error.message).toContain("API key not valid: [redacted]");
  });
});

describe("google ParserPort", () => {
  test("asks for JSON with the response schema and validates the reply", async () => {
    server.script({ reply: { json: { gene: "BCL2", confidence: 0.75 } } });
    const result = await googleParser(settings()).parse(GENE_QUESTION, GeneAnswer);
    expect(result).toMatchObject({ parsed: { gene: "BCL2", confidence: 0.75 }, strategy: "native" });
    const config = server.requests[0]?.body.generationConfig as Record<string, unknown>;
    expect(config.responseMimeType).toBe("application/json");
    expect(config.responseSchema).toMatchObject({ type: "object", required: ["gene", "confidence"] });
  });

  test("a reply that misses a field is retried once, usage summed", async () => {
    server.script(
      { reply: { json: { gene: "BCL2" }, usage: { input: 10, output: 3 } } },
      { reply: { json: { gene: "BCL2", confidence: 0.5 }, usage: { input: 20, output: 5 } } },
    );
    const result = await googleParser(settings()).parse(GENE_QUESTION, GeneAnswer);
    expect(result.strategy).toBe("feedback_retry");
    expect(result.usage).toMatchObject({ input_tokens: 30, output_tokens: 8, total_tokens: 38 });
  });
});
