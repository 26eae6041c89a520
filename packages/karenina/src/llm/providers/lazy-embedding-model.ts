/**
 * An embedding model whose provider package is imported at its first use, as {@link lazyLanguageModel} does
 * for chat models: a run that never embeds through Mistral, Cohere, Ollama, Azure or Bedrock never loads their
 * code. Settings are checked when the port is made; only the package import waits.
 */
import type { EmbeddingModelV3 } from "@ai-sdk/provider";

/** What a lazily loaded embedding model is: its provider and model names, and how to make the real model. */
export interface LazyEmbeddingModelSource {
  /** The provider name the AI SDK reports (`mistral.embedding`, `cohere.textEmbedding`, ...). */
  provider: string;
  modelId: string;
  /** Imports the provider package and makes the model; called once, at the first use. */
  load: () => Promise<EmbeddingModelV3>;
}

/**
 * The AI SDK's per-call byte limit (`Symbol.for` key of `@ai-sdk/provider-utils`), which `embedMany` reads to
 * split large batches (Azure OpenAI: 300 kB). Forwarded so that the wrapper splits as the real model would.
 */
const MAX_INPUT_BYTES_PER_CALL = Symbol.for("vercel.ai.embeddingModel.maxInputBytesPerCall");

/**
 * An `EmbeddingModelV3` that imports its provider when `embedMany` first asks for its limits or embeds, and
 * delegates to it: the batch limit, parallel-call support and byte limit are the real model's (as promises,
 * which the SDK awaits). A failed import is retried at the next use.
 * @example
 * const model = lazyEmbeddingModel({ provider: "mistral.embedding", modelId: "mistral-embed",
 *   load: async () => (await import("@ai-sdk/mistral")).createMistral({ apiKey }).embedding("mistral-embed") });
 */
export function lazyEmbeddingModel(source: LazyEmbeddingModelSource): EmbeddingModelV3 {
  let loading: Promise<EmbeddingModelV3> | undefined;
  const real = (): Promise<EmbeddingModelV3> => {
    loading ??= source.load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
  const model: EmbeddingModelV3 & { readonly [MAX_INPUT_BYTES_PER_CALL]: Promise<unknown> } = {
    specificationVersion: "v3",
    provider: source.provider,
    modelId: source.modelId,
    get maxEmbeddingsPerCall() {
      return real().then((loaded) => loaded.maxEmbeddingsPerCall);
    },
    get supportsParallelCalls() {
      return real().then((loaded) => loaded.supportsParallelCalls);
    },
    get [MAX_INPUT_BYTES_PER_CALL]() {
      return real().then(
        (loaded) => (loaded as unknown as Record<symbol, unknown>)[MAX_INPUT_BYTES_PER_CALL],
      );
    },
    doEmbed: async (options) => (await real()).doEmbed(options),
  };
  return model;
}
