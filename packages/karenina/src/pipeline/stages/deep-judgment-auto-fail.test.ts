/** DeepJudgmentAutoFail on a context whose deep-judgment artifacts are set by hand (no model calls). */
import { expect, test } from "vitest";
import { classifyFailure } from "../../results/index.js";
import { pipelineContext, UNREACHABLE_BASE_URL } from "../../test-support/pipeline-context.js";
import type { VerificationContext } from "../context.js";
import { deepJudgmentAutoFailStage } from "./deep-judgment-auto-fail.js";

function context(): VerificationContext {
  const ctx = pipelineContext({
    baseURL: UNREACHABLE_BASE_URL,
    config: { deep_judgment_mode: "full" },
    question: { id: "q1", text: "Which drug?", rawAnswer: null, template: null },
  });
  ctx.artifacts.deepJudgmentPerformed = true;
  ctx.artifacts.deepJudgmentReasoningOnly = false;
  ctx.artifacts.attributesWithoutExcerpts = ["drug"];
  ctx.artifacts.fieldVerificationResult = true;
  ctx.artifacts.verifyResult = true;
  return ctx;
}

test("an attribute without excerpts fails the verdict, classified as a deep-judgment auto-fail", async () => {
  const ctx = context();
  expect(deepJudgmentAutoFailStage.shouldRun?.(ctx)).toBe(true);
  await deepJudgmentAutoFailStage.run(ctx);

  expect([ctx.artifacts.verifyResult, ctx.artifacts.fieldVerificationResult]).toEqual([false, false]);
  expect(ctx.draft.template.verify_result).toBe(false);
  expect(ctx.draft.failedStage).toBe("DeepJudgmentAutoFail");
  expect(classifyFailure({ failedStage: ctx.draft.failedStage })).toMatchObject({
    category: "deep_judgment",
    group: "autofail",
  });
  expect(ctx.error).toBeNull();
});

test("an earlier guard's failed stage is kept (first guard wins)", async () => {
  const ctx = context();
  ctx.failAt("TraceValidationAutoFail");
  await deepJudgmentAutoFailStage.run(ctx);
  expect(ctx.draft.failedStage).toBe("TraceValidationAutoFail");
});

test("a detected abstention makes the stage a no-op", async () => {
  const ctx = context();
  ctx.artifacts.abstentionDetected = true;
  await deepJudgmentAutoFailStage.run(ctx);
  expect(ctx.artifacts.verifyResult).toBe(true);
  expect(ctx.draft.failedStage).toBeNull();
});

test.each([
  [
    "reasoning-only deep judgment",
    (ctx: VerificationContext) => (ctx.artifacts.deepJudgmentReasoningOnly = true),
  ],
  [
    "deep judgment that did not run",
    (ctx: VerificationContext) => (ctx.artifacts.deepJudgmentPerformed = false),
  ],
  [
    "every attribute has excerpts",
    (ctx: VerificationContext) => (ctx.artifacts.attributesWithoutExcerpts = []),
  ],
  ["an earlier error", (ctx: VerificationContext) => ctx.markError("Parsing failed")],
])("the stage does not run after %s", (_label, arrange) => {
  const ctx = context();
  arrange(ctx);
  expect(deepJudgmentAutoFailStage.shouldRun?.(ctx)).toBe(false);
});
