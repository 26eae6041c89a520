import { describe, expect, test } from "vitest";
import { parseRubric } from "../../model/index.js";
import { pipelineContext, UNREACHABLE_BASE_URL } from "../../test-support/pipeline-context.js";
import type { VerificationContext } from "../context.js";
import { deepJudgmentRubricAutoFailStage } from "./deep-judgment-rubric-auto-fail.js";

/** A rubric-only task; no call is made, so the endpoint is never contacted. */
function context(): VerificationContext {
  return pipelineContext({
    baseURL: UNREACHABLE_BASE_URL,
    config: { evaluation_mode: "rubric_only" },
    question: {
      id: "q1",
      text: "What is the molecular target of venetoclax?",
      rawAnswer: null,
      template: null,
      rubric: parseRubric({ llm_traits: [{ name: "mentions_bcl2", kind: "boolean" }] }),
    },
  });
}

const autoFailedBlock = {
  deep_judgment_rubric_performed: true,
  traits_without_valid_excerpts: ["mentions_bcl2"],
};

describe("DeepJudgmentRubricAutoFail", () => {
  test("fails the verdict when a deep-judgment trait found no valid excerpt", async () => {
    const ctx = context();
    ctx.draft.deepJudgmentRubric = autoFailedBlock;
    expect(deepJudgmentRubricAutoFailStage.shouldRun?.(ctx)).toBe(true);
    await deepJudgmentRubricAutoFailStage.run(ctx);
    expect(ctx.artifacts.verifyResult).toBe(false);
    expect(ctx.draft.template.verify_result).toBe(false);
    expect(ctx.draft.failedStage).toBe("DeepJudgmentRubricAutoFail");
  });

  test("an earlier guard keeps its place as the failed stage", async () => {
    const ctx = context();
    ctx.draft.deepJudgmentRubric = autoFailedBlock;
    ctx.failAt("RecursionLimitAutoFail");
    await deepJudgmentRubricAutoFailStage.run(ctx);
    expect(ctx.draft.failedStage).toBe("RecursionLimitAutoFail");
  });

  test("does nothing when the answer was detected as an abstention", async () => {
    const ctx = context();
    ctx.draft.deepJudgmentRubric = autoFailedBlock;
    ctx.artifacts.abstentionDetected = true;
    await deepJudgmentRubricAutoFailStage.run(ctx);
    expect(ctx.draft.failedStage).toBeNull();
    expect(ctx.artifacts.verifyResult).toBeUndefined();
  });

  test("skips itself when rubric deep judgment did not run, every trait had excerpts, or the task has an error", () => {
    const ctx = context();
    expect(deepJudgmentRubricAutoFailStage.shouldRun?.(ctx)).toBe(false);
    ctx.draft.deepJudgmentRubric = {
      deep_judgment_rubric_performed: true,
      traits_without_valid_excerpts: [],
    };
    expect(deepJudgmentRubricAutoFailStage.shouldRun?.(ctx)).toBe(false);
    ctx.draft.deepJudgmentRubric = autoFailedBlock;
    ctx.markError("earlier failure");
    expect(deepJudgmentRubricAutoFailStage.shouldRun?.(ctx)).toBe(false);
  });
});
