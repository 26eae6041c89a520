/** When stage 7b runs (seed 002 §3 "should_run() Conditions"), one condition per test. No model is called. */
import { beforeEach, describe, expect, test } from "vitest";
import { loadTemplateInput } from "../../templates/index.js";
import { DRUG_TEMPLATE, pipelineContext, UNREACHABLE_BASE_URL } from "../../test-support/pipeline-context.js";
import type { VerificationContext } from "../context.js";
import { agenticParseTemplateStage } from "./agentic-parse-template.js";

const shouldRun = (ctx: VerificationContext) => agenticParseTemplateStage.shouldRun?.(ctx) ?? true;

/** A context whose answer is ready to be investigated: every condition holds. */
async function readyContext(config: Record<string, unknown> = {}): Promise<VerificationContext> {
  const ctx = pipelineContext({
    baseURL: UNREACHABLE_BASE_URL,
    config: { agentic_parsing: true, ...config },
  });
  ctx.artifacts.template = await loadTemplateInput(DRUG_TEMPLATE);
  ctx.artifacts.rawLlmResponse = "--- AI Message ---\nVenetoclax.";
  ctx.artifacts.recursionLimitReached = false;
  ctx.artifacts.traceValidationFailed = false;
  return ctx;
}

describe("seed 002 §3 should_run: stage 7b skips itself", () => {
  let ctx: VerificationContext;
  beforeEach(async () => {
    ctx = await readyContext();
  });

  test("seed 002 §3 runs when every condition holds", () => {
    expect(shouldRun(ctx)).toBe(true);
  });

  test("seed 002 §3 skips when a prior stage set an error", () => {
    ctx.markError("Adapter call failed: boom");
    expect(shouldRun(ctx)).toBe(false);
  });

  test("seed 002 §3 skips when agentic_parsing is off", async () => {
    const off = await readyContext({ agentic_parsing: false });
    expect(shouldRun(off)).toBe(false);
  });

  test("seed 002 §3 skips when the answering agent hit the recursion limit", () => {
    ctx.artifacts.recursionLimitReached = true;
    expect(shouldRun(ctx)).toBe(false);
  });

  test("seed 002 §3 skips when trace validation failed", () => {
    ctx.artifacts.traceValidationFailed = true;
    expect(shouldRun(ctx)).toBe(false);
  });

  test("seed 002 §3 skips when an abstention was detected", () => {
    ctx.artifacts.abstentionDetected = true;
    expect(shouldRun(ctx)).toBe(false);
  });

  test("seed 002 §3 skips when the answer was found insufficient", () => {
    ctx.artifacts.sufficiencyDetected = false;
    expect(shouldRun(ctx)).toBe(false);
  });
});
