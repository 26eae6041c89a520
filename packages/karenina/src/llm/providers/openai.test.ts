/** The openai and openrouter adapters over real HTTP, against the scripted OpenAI-compatible server (hand-written replies). */
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { startOpenAiServer } from "../../test-support/openai-server/index.js";
import { serverPerTest } from "../../test-support/server-per-test.js";
import {
  AdapterUnavailableError,
  LlmCallError,
  openAiLlm,
  openAiParser,
  openRouterLlm,
  openRouterParser,
  RateLimitError,
  userMessage,
  zodStructuredSchema,
} from "../index.js";

const Answer = zodStructuredSchema("Answer", z.object({ gene: z.string() }));
const KEY = "sk-openai-test-secret-789";

const server = serverPerTest(startOpenAiServer);

describe("openai adapter", () => {
  test("calls Chat Completions with the key from OPENAI_API_KEY and the base URL from OPENAI_BASE_URL", async () => {
    server.script({ reply: { text: "hello" } });
    const env = { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: server.baseURL };
    const response = await openAiLlm({ modelName: "gpt-test", env, temperature: 0.3, maxTokens: 99 }).invoke([
      userMessage("hi"),
    ]);
    expect(response.content).toBe("hello");
    const [request] = server.requests;
    expect(request?.path).toBe("/v1/chat/completions");
    expect(request?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request?.body).toMatchObject({ model: "gpt-test", temperature: 0.3, max_tokens: 99 });
  });

  test("an explicit key and base URL win over the environment", async () => {
    server.script({ reply: { text: "x" } });
    await openAiLlm({
      modelName: "gpt-test",
      apiKey: "sk-explicit",
      baseURL: server.baseURL,
      env: { OPENAI_API_KEY: "sk-env", OPENAI_BASE_URL: "http://127.0.0.1:9/v1" },
    }).invoke([userMessage("hi")]);
    expect(server.requests[0]?.headers.authorization).toBe("Bearer sk-explicit");
  });

  test("parses with a JSON-schema response_format", async () => {
    server.script({ reply: { json: { gene: "BCL2" } } });
    const result = await openAiParser({ modelName: "gpt-test", apiKey: KEY, baseURL: server.baseURL }).parse(
      [userMessage("gene?")],
      Answer,
    );
    expect(result).toMatchObject({ parsed: { gene: "BCL2" }, strategy: "native" });
    expect(server.requests[0]?.body.response_format).toMatchObject({ type: "json_schema" });
  });

  test("without a key the adapter is unavailable and names OPENAI_API_KEY", () => {
    expect(() => openAiLlm({ modelName: "gpt-test", env: {} })).toThrow(AdapterUnavailableError);
    expect(() => openAiLlm({ modelName: "gpt-test", env: {} })).toThrow(
      /set the environment variable OPENAI_API_KEY/,
    );
  });

  test("the key is redacted from errors that echo it", async () => {
    server.script({ reply: { status: 401, message: `Incorrect API key provided: ${KEY}` } });
    const error = (await openAiLlm({ modelName: "gpt-test", apiKey: KEY, baseURL: server.baseURL })
      .invoke([userMessage("hi")])
      .catch((e: unknown) => e)) as LlmCallError;
    expect(error).toBeInstanceOf(LlmCallError);
    expect(error.message).not.toContain(KEY);
  });
});

describe("openrouter adapter", () => {
  test("uses OPENROUTER_API_KEY as a bearer token against the given base URL", async () => {
    server.script({ reply: { text: "routed" } });
    const llm = openRouterLlm({
      modelName: "openai/gpt-4.1-mini",
      baseURL: server.baseURL,
      env: { OPENROUTER_API_KEY: KEY },
    });
    expect((await llm.invoke([userMessage("hi")])).content).toBe("routed");
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(server.requests[0]?.body.model).toBe("openai/gpt-4.1-mini");
  });

  test("rate limits surface with Retry-After; parsing falls back to extracted JSON", async () => {
    server.script(
      { reply: { status: 429, retryAfter: 2 } },
      { reply: { text: 'The answer: {"gene": "KRAS"}' } },
    );
    const options = { modelName: "m", apiKey: KEY, baseURL: server.baseURL };
    const limited = await openRouterLlm(options)
      .invoke([userMessage("hi")])
      .catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(RateLimitError);
    expect(limited).toMatchObject({ retryAfterSeconds: 2 });
    const result = await openRouterParser(options).parse([userMessage("gene?")], Answer);
    expect(result).toMatchObject({ parsed: { gene: "KRAS" }, strategy: "extracted" });
  });

  test("without a key the adapter is unavailable and names OPENROUTER_API_KEY", () => {
    expect(() => openRouterLlm({ modelName: "m", env: {} })).toThrow(/OPENROUTER_API_KEY/);
  });
});
