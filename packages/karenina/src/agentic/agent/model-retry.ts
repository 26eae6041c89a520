import type { LanguageModelV3, LanguageModelV3GenerateResult } from "@ai-sdk/provider";
import { wrapLanguageModel } from "ai";
import { type LanguageModelTarget, toPortError } from "../../llm/index.js";
import { type AgentMiddleware, attempts, errorSummary, retrying } from "./middleware.js";

/** The prefix of the placeholder message a model call failing for good leaves (spec 04 §5.5). */
export const MODEL_FAILURE_PREFIX = "Model call failed after ";

function placeholder(text: string): LanguageModelV3GenerateResult {
  return {
    content: [{ type: "text", text }],
    finishReason: { unified: "error", raw: undefined },
    usage: {
      inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
      outputTokens: { total: 0, text: 0, reasoning: 0 },
    },
    warnings: [],
  };
}

/**
 * The agent's model with its calls retried (the original's `ModelRetryMiddleware`): every failure but an
 * abort is retried with backoff; after the last one, `onFailure: "continue"` answers with a placeholder
 * assistant message `Model call failed after N attempts with Type: message` (ending the run: it has no tool
 * calls), `raise` throws the error. Error messages are the port errors' (API keys redacted).
 */
export function withModelRetry(target: LanguageModelTarget, middleware: AgentMiddleware): LanguageModelV3 {
  const settings = middleware.modelRetry;
  return wrapLanguageModel({
    model: target.model,
    middleware: {
      specificationVersion: "v3",
      wrapGenerate: ({ doGenerate, params }) =>
        retrying(
          async () => doGenerate(),
          settings,
          {
            signal: params.abortSignal,
            ...(middleware.sleep === undefined ? {} : { sleep: middleware.sleep }),
            ...(middleware.random === undefined ? {} : { random: middleware.random }),
          },
          (error, made) => {
            const failure = toPortError(error, {
              model: target.modelName,
              timeoutMs: 0,
              timedOut: false,
              aborted: false,
              secrets: target.secrets ?? [],
            });
            if (settings.onFailure === "raise") throw failure;
            return placeholder(`${MODEL_FAILURE_PREFIX}${attempts(made)} with ${errorSummary(failure)}`);
          },
        ),
    },
  });
}
