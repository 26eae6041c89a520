/**
 * A language model whose provider package is imported at its first call, so that a run (or a command) that
 * never calls Mistral, Groq, Ollama, Azure, ... never loads their code. Settings are checked when the model
 * is made (a missing key fails then); only the package import waits for the first call.
 */
import type { LanguageModelV3 } from "@ai-sdk/provider";

/** What a lazily loaded model is: its provider and model names, and how to make the real model. */
export interface LazyModelSource {
  /** The provider name the AI SDK reports (`mistral.chat`, `ollama`, ...). */
  provider: string;
  modelId: string;
  /** Imports the provider package and makes the model; called once, at the first call. */
  load: () => Promise<LanguageModelV3>;
}

/**
 * A `LanguageModelV3` that imports its provider at the first `doGenerate` or `doStream` (or when its supported
 * URLs are asked for) and delegates every call to it. A failed import is retried at the next call.
 * @example
 * const model = lazyLanguageModel({ provider: "mistral.chat", modelId: "mistral-small-latest",
 *   load: async () => (await import("@ai-sdk/mistral")).createMistral({ apiKey }).chat("mistral-small-latest") });
 */
export function lazyLanguageModel(source: LazyModelSource): LanguageModelV3 {
  let loading: Promise<LanguageModelV3> | undefined;
  const real = (): Promise<LanguageModelV3> => {
    loading ??= source.load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
  return {
    specificationVersion: "v3",
    provider: source.provider,
    modelId: source.modelId,
    get supportedUrls() {
      return real().then((model) => model.supportedUrls);
    },
    doGenerate: async (options) => (await real()).doGenerate(options),
    doStream: async (options) => (await real()).doStream(options),
  };
}
