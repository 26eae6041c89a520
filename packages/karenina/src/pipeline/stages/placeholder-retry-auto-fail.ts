import { MODEL_FAILURE_PREFIX } from "../../agentic/index.js";
import { messageText } from "../../llm/index.js";
import type { Stage } from "../stage.js";

/**
 * Stage 4b (spec 04 §5.5): an agent loop that swallowed its exhausted model retries ends with a placeholder
 * assistant message; the task fails as a connection error instead of being judged on it.
 */
export const placeholderRetryAutoFailStage: Stage = {
  name: "PlaceholderRetryAutoFail",
  needs: ["traceMessages"],
  gives: ["verifyResult", "fieldVerificationResult"],
  shouldRun: (ctx) => ctx.error === null && (ctx.artifacts.traceMessages?.length ?? 0) > 0,
  async run(ctx) {
    const last = ctx.artifacts.traceMessages?.at(-1);
    if (last?.role !== "assistant") return;
    const text = messageText(last);
    if (!text.startsWith(MODEL_FAILURE_PREFIX)) return;
    ctx.forceFail("PlaceholderRetryAutoFail");
    ctx.markError(
      `Model retry exhausted in agent loop: ${text.slice(0, 500)}`,
      "connection",
      "GenerateAnswer",
    );
  },
};
