/** The embedding port over real HTTP, against the scripted OpenAI-compatible server (hand-written vectors). */
import { expect, test } from "vitest";
import { startOpenAiServer } from "../../test-support/openai-server/index.js";
import { serverPerTest } from "../../test-support/server-per-test.js";
import {
  AdapterUnavailableError,
  LlmCallError,
  openAiEmbeddings,
  openAiEndpointEmbeddings,
  RateLimitError,
} from "../index.js";

const server = serverPerTest(startOpenAiServer);

test("an OpenAI-compatible endpoint embeds texts in order, with usage", async () => {
  server.script({
    match: { endpoint: "embeddings" },
    reply: {
      embeddings: [
        [1, 0],
        [0, 1],
      ],
    },
  });
  const port = openAiEndpointEmbeddings({ baseURL: server.url, apiKey: "sk-embed", modelName: "embedder" });
  const result = await port.embed(["first", "second"]);
  expect(result.embeddings).toEqual([
    [1, 0],
    [0, 1],
  ]);
  expect(result.usage).toEqual({ input_tokens: 3, output_tokens: 0, total_tokens: 3, model: "embedder" });
  const [request] = server.requests;
  expect(request?.path).toBe("/v1/embeddings");
  expect(request?.headers.authorization).toBe("Bearer sk-embed");
  expect(request?.body).toMatchObject({ model: "embedder", input: ["first", "second"] });
});

test("equal texts get equal vectors; no texts make no call", async () => {
  const port = openAiEmbeddings({
    modelName: "text-embedding-3-small",
    env: { OPENAI_API_KEY: "k", OPENAI_BASE_URL: server.baseURL },
  });
  const { embeddings } = await port.embed(["same", "same", "other"]);
  expect(embeddings[0]).toEqual(embeddings[1]);
  expect(embeddings[0]).not.toEqual(embeddings[2]);
  expect((await port.embed([])).embeddings).toEqual([]);
  expect(server.requests).toHaveLength(1);
});

test("embedding errors are port errors", async () => {
  server.script(
    { match: { endpoint: "embeddings" }, reply: { status: 429, retryAfter: 4 } },
    { match: { endpoint: "embeddings" }, reply: { status: 500 } },
  );
  const port = openAiEndpointEmbeddings({ baseURL: server.url, apiKey: "k", modelName: "e" });
  expect(await port.embed(["a"]).catch((e: unknown) => e)).toBeInstanceOf(RateLimitError);
  expect(await port.embed(["a"]).catch((e: unknown) => e)).toMatchObject({ category: "server_error" });
  expect(LlmCallError).toBeDefined();
});

test("a missing key makes the embedding port unavailable", () => {
  expect(() => openAiEndpointEmbeddings({ baseURL: server.url, apiKey: "", modelName: "e" })).toThrow(
    AdapterUnavailableError,
  );
  expect(() => openAiEmbeddings({ modelName: "e", env: {} })).toThrow(/OPENAI_API_KEY/);
});
