import { expect, test } from "vitest";
import { RetryPolicySchema } from "../llm/index.js";
import { RetryTracker, UsageTracker, VerificationResultTemplateSchema } from "./index.js";

test("usage is summed per stage, with the first call's model, and totalled over stages", () => {
  const usage = new UsageTracker();
  usage.record(
    "answer_generation",
    { input_tokens: 100, output_tokens: 20, total_tokens: 120, cost_usd: 0.5 },
    "gpt-4o",
  );
  usage.record("parsing", { input_tokens: 10, output_tokens: 2, total_tokens: 12, model: "judge-1" });
  usage.record("parsing", {
    input_tokens: 5,
    output_tokens: 1,
    total_tokens: 6,
    model: "judge-2",
    cost_usd: 0.25,
    input_token_details: { audio: 1, cache_read: 3, cache_creation: 2 },
    output_token_details: { reasoning: 7 },
  });
  const summary = usage.summary();
  expect(Object.keys(summary)).toEqual(["answer_generation", "parsing", "total"]);
  expect(summary.parsing).toEqual({
    input_tokens: 15,
    output_tokens: 3,
    total_tokens: 18,
    model: "judge-1",
    input_token_details: { audio: 1, cache_read: 3, cache_creation: 2 },
    output_token_details: { audio: 0, reasoning: 7 },
  });
  expect(summary.answer_generation?.model).toBe("gpt-4o");
  expect(summary.total).toEqual({ input_tokens: 115, output_tokens: 23, total_tokens: 138 });
  expect(usage.costUsd()).toBe(0.75);
  expect(usage.costUsd("parsing")).toBe(0.25);
  expect(usage.costUsd("abstention_check")).toBe(0);
});

test("the usage summary is what a result's template section stores", () => {
  const usage = new UsageTracker();
  usage.record("abstention_check", { input_tokens: 1, output_tokens: 1, total_tokens: 2 });
  const template = VerificationResultTemplateSchema.parse({ usage_metadata: usage.summary() });
  expect(template.usage_metadata).toEqual(usage.summary());
  expect(template.usage_metadata?.abstention_check?.model).toBeNull();
});

test("an empty tracker has only a zero total", () => {
  const usage = new UsageTracker();
  expect(usage.isEmpty).toBe(true);
  expect(usage.summary()).toEqual({ total: { input_tokens: 0, output_tokens: 0, total_tokens: 0 } });
});

test("retry budgets come from the answering model's policy, the default policy filling the gaps", () => {
  const policy = RetryPolicySchema.parse({ rate_limit: { max_attempts: 1 } });
  const retries = new RetryTracker(policy);
  expect(retries.snapshot()).toEqual({
    connection: { used: 0, budget: 3 },
    timeout: { used: 0, budget: 3 },
    rate_limit: { used: 0, budget: 1 },
    server_error: { used: 0, budget: 2 },
  });
  expect(new RetryTracker(null).snapshot()).toEqual(new RetryTracker().snapshot());
  expect(new RetryTracker({ server_error: { max_attempts: 0 } }).exhausted("server_error")).toBe(true);
});

test("recorded retries count against their category only, and snapshots are copies", () => {
  const retries = new RetryTracker({ timeout: { max_attempts: 2 } });
  expect(retries.anyUsed).toBe(false);
  const before = retries.snapshot();
  retries.record("timeout");
  expect(retries.exhausted("timeout")).toBe(false);
  retries.record("timeout");
  expect(retries.exhausted("timeout")).toBe(true);
  expect(retries.exhausted("connection")).toBe(false);
  expect(retries.anyUsed).toBe(true);
  expect(before.timeout.used).toBe(0);
  expect(retries.snapshot().timeout).toEqual({ used: 2, budget: 2 });
});
