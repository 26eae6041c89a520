import type { Stage } from "../stage.js";

/**
 * Stage 12 (spec 04 §5.12, spec 03 §10.4): a rubric trait judged with deep judgment for which no valid
 * excerpt was found after every attempt fails the verdict (`verify_result = false`), unless the answer was
 * detected as an abstention. Not an error. Included whenever rubric evaluation is (the original adds it only
 * with template deep judgment); it skips itself when rubric deep judgment did not run.
 */
export const deepJudgmentRubricAutoFailStage: Stage = {
  name: "DeepJudgmentRubricAutoFail",
  needs: [],
  gives: ["verifyResult", "fieldVerificationResult"],
  shouldRun(ctx) {
    const block = ctx.draft.deepJudgmentRubric;
    return (
      ctx.error === null &&
      block?.deep_judgment_rubric_performed === true &&
      (block.traits_without_valid_excerpts?.length ?? 0) > 0
    );
  },
  async run(ctx) {
    if (ctx.artifacts.abstentionDetected === true) return;
    ctx.forceFail("DeepJudgmentRubricAutoFail");
  },
};
