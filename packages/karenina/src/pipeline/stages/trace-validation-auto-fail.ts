import { extractFinalAiMessage } from "../../llm/index.js";
import type { Stage } from "../stage.js";

/**
 * Stage 4 (spec 04 §5.4): an answer from a tool-using agent must end with an assistant message that has
 * text. Plain LLM answers, manual traces and replayed verdicts are trusted. A failure fails the verdict
 * without being an error.
 */
export const traceValidationAutoFailStage: Stage = {
  name: "TraceValidationAutoFail",
  needs: ["rawLlmResponse", "traceMessages"],
  gives: ["mcpEnabled", "traceValidationFailed", "verifyResult", "fieldVerificationResult"],
  shouldRun: (ctx) => ctx.error === null && ctx.artifacts.rawLlmResponse !== undefined,
  async run(ctx) {
    const answering = ctx.task.answering;
    const mcpEnabled = answering.mcp_urls_dict !== null;
    ctx.artifacts.mcpEnabled = mcpEnabled;
    ctx.artifacts.traceValidationFailed = false;
    const verdict = ctx.artifacts.replayedVerdict;
    if (verdict !== undefined) {
      ctx.artifacts.verifyResult = verdict;
      ctx.artifacts.fieldVerificationResult = verdict;
      ctx.draft.template.verify_result = verdict;
      return;
    }
    if (ctx.artifacts.replayedParsedAnswer !== undefined) return;
    if (!mcpEnabled || answering.interface === "manual") return;
    const source = ctx.artifacts.traceMessages ?? ctx.artifacts.rawLlmResponse ?? "";
    const extracted = extractFinalAiMessage(source);
    if (extracted.ok) return;
    ctx.artifacts.traceValidationFailed = true;
    ctx.draft.traceExtractionError = extracted.error;
    ctx.forceFail("TraceValidationAutoFail");
  },
};
