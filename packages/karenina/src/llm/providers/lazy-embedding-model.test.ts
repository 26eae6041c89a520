/**
 * The lazy embedding model over real HTTP: its provider is made at the first use and once, a failed load is
 * tried again at the next use, and the real model's batch limits reach `embedMany` (against the scripted
 * Mistral and Azure servers on 127.0.0.1; the vectors are hand-written test data).
 */
import { createAzure } from "@ai-sdk/azure";
import { createMistral } from "@ai-sdk/mistral";
import { expect, test } from "vitest";
import { startChatServer } from "../../test-support/provider-servers/index.js";
import { serverPerTest } from "../../test-support/server-per-test.js";
import { embeddingModelPort } from "./embeddings.js";
import { lazyEmbeddingModel } from "./lazy-embedding-model.js";

const server = serverPerTest(() => startChatServer("mistral"));

test("the model is made at the first embed, once, and a failed load is tried again", async () => {
  let loads = 0;
  const model = lazyEmbeddingModel({
    provider: "mistral.embedding",
    modelId: "mistral-embed",
    load: async () => {
      loads += 1;
      if (loads === 1) throw new Error("package import failed");
      return createMistral({ apiKey: "k", baseURL: server.baseURL }).embedding("mistral-embed");
    },
  });
  const port = embeddingModelPort({ model, modelName: "mistral-embed" });
  expect(loads).toBe(0);
  await expect(port.embed(["a"])).rejects.toThrow(/package import failed/);
  server.script({ endpoint: "embeddings", reply: { embeddings: [[1, 0]], tokens: 1 }, repeat: true });
  expect((await port.embed(["a"])).embeddings).toEqual([[1, 0]]);
  await port.embed(["b"]);
  expect(loads).toBe(2);
});

test("the real model's batch limit splits calls: Mistral's 32 texts a call, one call after another", async () => {
  server.script({ endpoint: "embeddings", reply: { embeddings: [[1]], tokens: 1 }, repeat: true });
  const model = lazyEmbeddingModel({
    provider: "mistral.embedding",
    modelId: "mistral-embed",
    load: async () => createMistral({ apiKey: "k", baseURL: server.baseURL }).embedding("mistral-embed"),
  });
  expect(await model.maxEmbeddingsPerCall).toBe(32);
  expect(await model.supportsParallelCalls).toBe(false);
  // 40 texts: two calls (32 + 8), each answered with one scripted vector.
  const { usage } = await embeddingModelPort({ model, modelName: "mistral-embed" }).embed(
    Array.from({ length: 40 }, (_, index) => `text ${index}`),
  );
  expect(server.requests.map((request) => (request.body.input as string[]).length)).toEqual([32, 8]);
  expect(usage.input_tokens).toBe(2);
});

test("the AI SDK's per-call byte limit is the real model's (Azure OpenAI: 300 000 bytes)", async () => {
  const model = lazyEmbeddingModel({
    provider: "azure.embeddings",
    modelId: "embedder",
    load: async () => createAzure({ apiKey: "k", baseURL: `${server.url}/openai/v1` }).embedding("embedder"),
  });
  const limit = (model as unknown as Record<symbol, unknown>)[
    Symbol.for("vercel.ai.embeddingModel.maxInputBytesPerCall")
  ];
  expect(await limit).toBe(300_000);
});
