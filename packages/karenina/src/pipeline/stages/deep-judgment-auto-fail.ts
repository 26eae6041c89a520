import type { Stage } from "../stage.js";

/**
 * Stage 10 (spec 04 §5.10): full template deep judgment that found no valid excerpt for some attribute fails
 * the verdict (`verify_result = false`, `failed_stage = DeepJudgmentAutoFail`, classified `deep_judgment`),
 * unless the answer was detected as an abstention. Not an error. Reasoning-only deep judgment extracts no
 * excerpts, so it never auto-fails.
 */
export const deepJudgmentAutoFailStage: Stage = {
  name: "DeepJudgmentAutoFail",
  needs: [],
  gives: ["verifyResult", "fieldVerificationResult"],
  shouldRun: (ctx) =>
    ctx.error === null &&
    ctx.artifacts.deepJudgmentReasoningOnly !== true &&
    ctx.artifacts.deepJudgmentPerformed === true &&
    (ctx.artifacts.attributesWithoutExcerpts?.length ?? 0) > 0,
  async run(ctx) {
    if (ctx.artifacts.abstentionDetected === true) return;
    ctx.forceFail("DeepJudgmentAutoFail");
  },
};
