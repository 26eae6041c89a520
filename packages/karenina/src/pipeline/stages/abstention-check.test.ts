/** AbstentionCheck over real HTTP against the scripted OpenAI-compatible server (hand-written replies). */
import { expect, test } from "vitest";
import { startOpenAiServer } from "../../test-support/openai-server/index.js";
import { DRUG_GROUND_TRUTH, scriptedPipeline } from "../../test-support/pipeline-context.js";
import { serverPerTest } from "../../test-support/server-per-test.js";
import { abstentionCheckStage } from "./abstention-check.js";

const REFUSAL = "I cannot access clinical guidelines, so I cannot say which drug should be used.";

const server = serverPerTest(startOpenAiServer);
const { contextFor, verify } = scriptedPipeline(server, { config: { abstention_enabled: true } });

const judgeRequests = (includes: string) =>
  server.requests.filter(
    (request) => request.body.model === "judge" && JSON.stringify(request.body).includes(includes),
  );

test("a detected abstention fails the verdict, skips parsing and is classified as abstention", async () => {
  server.script({
    match: { model: "judge", lastUserIncludes: "abstains" },
    reply: {
      json: {
        reasoning: '"I cannot access clinical guidelines"; no drug is named.',
        abstention_detected: true,
      },
    },
  });
  const { result } = await verify(REFUSAL);

  expect(result.template).toMatchObject({
    abstention_check_performed: true,
    abstention_detected: true,
    abstention_override_applied: true,
    abstention_reasoning: '"I cannot access clinical guidelines"; no drug is named.',
    verify_result: false,
    template_verification_performed: false,
  });
  expect(result.metadata.failure).toMatchObject({
    category: "abstention",
    group: "abstained",
    reason: '"I cannot access clinical guidelines"; no drug is named.',
  });
  expect(judgeRequests("Extract the fields")).toEqual([]);
  const [check] = judgeRequests("abstains");
  expect(check?.body.temperature).toBe(0);
  expect(JSON.stringify(check?.body)).toContain(REFUSAL);
  expect(result.template?.usage_metadata).toHaveProperty("abstention_check");
  for (const request of server.requests)
    expect(JSON.stringify(request.body).toLowerCase()).not.toContain(DRUG_GROUND_TRUTH);
});

test("an answer that commits to a value is not an abstention: the template is verified as usual", async () => {
  server.script(
    {
      match: { model: "judge", lastUserIncludes: "abstains" },
      reply: { json: { reasoning: "No disclaimer; it names a drug.", abstention_detected: false } },
    },
    {
      match: { model: "judge", lastUserIncludes: "Extract the fields" },
      reply: { json: { drug: "Venetoclax" } },
    },
  );
  const { ctx, result } = await verify("Venetoclax is the approved BCL-2 inhibitor.");

  expect(result.template).toMatchObject({
    abstention_check_performed: true,
    abstention_detected: false,
    abstention_override_applied: false,
    verify_result: true,
  });
  expect(ctx.draft.failedStage).toBeNull();
  expect(result.metadata.failure).toBeNull();
});

test("a judge that keeps failing leaves the check not performed, and the task goes on", async () => {
  server.script(
    { match: { model: "judge", lastUserIncludes: "abstains" }, reply: { status: 503 }, repeat: true },
    {
      match: { model: "judge", lastUserIncludes: "Extract the fields" },
      reply: { json: { drug: "Venetoclax" } },
    },
  );
  const { ctx, result } = await verify("Venetoclax is the approved BCL-2 inhibitor.");

  expect(judgeRequests("abstains")).toHaveLength(2);
  expect(result.template).toMatchObject({
    abstention_check_performed: false,
    abstention_detected: false,
    abstention_override_applied: false,
    abstention_reasoning: null,
    verify_result: true,
  });
  expect(ctx.error).toBeNull();
  expect(result.metadata.warnings.some((warning) => warning.startsWith("Abstention check failed:"))).toBe(
    true,
  );
});

test("an answer whose final AI message cannot be extracted is not checked", async () => {
  const ctx = contextFor();
  ctx.artifacts.rawLlmResponse = "--- Tool Message (call_id: c1) ---\nno rows";
  await abstentionCheckStage.run(ctx);

  expect(server.requests).toEqual([]);
  expect(ctx.artifacts.abstentionDetected).toBe(false);
  expect(ctx.draft.template.abstention_check_performed).toBe(false);
  expect(ctx.warnings[0]).toMatch(/^Abstention check not performed: Failed to extract final AI message/);
});

test("the check does not run after a recursion limit or on a partial answer", () => {
  const ctx = contextFor();
  ctx.artifacts.rawLlmResponse = `--- AI Message ---\n${REFUSAL}`;
  expect(abstentionCheckStage.shouldRun?.(ctx)).toBe(true);
  ctx.artifacts.responseTimeoutPartial = true;
  expect(abstentionCheckStage.shouldRun?.(ctx)).toBe(false);
  ctx.artifacts.responseTimeoutPartial = false;
  ctx.artifacts.recursionLimitReached = true;
  expect(abstentionCheckStage.shouldRun?.(ctx)).toBe(false);
});
