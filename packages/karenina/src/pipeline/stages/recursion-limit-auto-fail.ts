import type { Stage } from "../stage.js";

/**
 * Stage 3 (spec 04 §5.3): an agent that hit its turn limit fails template verification. Not an error: the
 * trace and usage are kept and the rubric still runs.
 */
export const recursionLimitAutoFailStage: Stage = {
  name: "RecursionLimitAutoFail",
  needs: ["recursionLimitReached"],
  gives: ["verifyResult", "fieldVerificationResult"],
  shouldRun: (ctx) => ctx.artifacts.recursionLimitReached === true,
  async run(ctx) {
    ctx.forceFail("RecursionLimitAutoFail");
  },
};
