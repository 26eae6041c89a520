/** DeepJudgmentAutoFail on a context whose deep-judgment artifacts are set by hand (no model calls). */
import { expect, test } from "vitest";
import { classifyFailure } from "../../results/index.js";
import { parseVerificationConfig } from "../config/index.js";
import { VerificationContext } from "../context.js";
import { planTasks } from "../planning.js";
import { createRunServices } from "../services.js";
import { deepJudgmentAutoFailStage } from "./deep-judgment-auto-fail.js";

function context(): VerificationContext {
  const model = {
    id: "judge",
    model_name: "judge",
    interface: "openai_endpoint",
    endpoint_base_url: "http://127.0.0.1:9/v1",
    endpoint_api_key: "test-key",
  };
  const config = parseVerificationConfig({
    answering_models: [model],
    parsing_models: [model],
    deep_judgment_mode: "full",
  });
  const [task] = planTasks(
    [
      {
        id: "q1",
        text: "Which drug?",
        rawAnswer: null,
        template: null,
        keywords: null,
        fewShotExamples: [],
        rubric: null,
        dynamicRubric: null,
        workspacePath: null,
      },
    ],
    config,
  );
  if (task === undefined) throw new Error("no task planned");
  const ctx = new VerificationContext(task, config, createRunServices(config));
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
