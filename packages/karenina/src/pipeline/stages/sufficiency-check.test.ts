/** SufficiencyCheck over real HTTP against the scripted OpenAI-compatible server (hand-written replies). */
import { expect, test } from "vitest";
import { loadTemplateInput } from "../../templates/index.js";
import { startOpenAiServer } from "../../test-support/openai-server/index.js";
import { DRUG_GROUND_TRUTH, DRUG_TEMPLATE, scriptedPipeline } from "../../test-support/pipeline-context.js";
import { serverPerTest } from "../../test-support/server-per-test.js";
import { sufficiencyCheckStage } from "./sufficiency-check.js";

const VAGUE = "Several targeted therapies exist for this disease; treatment choice depends on the patient.";

const server = serverPerTest(startOpenAiServer);
const { contextFor, verify } = scriptedPipeline(server, { config: { sufficiency_enabled: true } });

const judgeRequests = (includes: string) =>
  server.requests.filter(
    (request) => request.body.model === "judge" && JSON.stringify(request.body).includes(includes),
  );

const INSUFFICIENT = {
  reasoning: "drug: no span of the response names a drug.",
  sufficient: false,
};

test("an insufficient answer fails the verdict, skips parsing and is classified as sufficiency", async () => {
  server.script({
    match: { model: "judge", lastUserIncludes: "is sufficient" },
    reply: { json: INSUFFICIENT },
  });
  const { result } = await verify(VAGUE);

  expect(result.template).toMatchObject({
    sufficiency_check_performed: true,
    sufficiency_detected: false,
    sufficiency_override_applied: true,
    sufficiency_reasoning: INSUFFICIENT.reasoning,
    verify_result: false,
    template_verification_performed: false,
  });
  expect(result.metadata.failure).toMatchObject({ category: "sufficiency", group: "abstained" });
  expect(judgeRequests("Extract the fields")).toEqual([]);
  const [check] = judgeRequests("is sufficient");
  expect(check?.body.temperature).toBe(0);
  const sent = JSON.stringify(check?.body);
  expect(sent).toContain(VAGUE);
  expect(sent).toContain("The drug the response recommends");
  expect(result.template?.usage_metadata).toHaveProperty("sufficiency_check");
  for (const request of server.requests)
    expect(JSON.stringify(request.body).toLowerCase()).not.toContain(DRUG_GROUND_TRUTH);
});

test("a sufficient answer goes on to parsing and is not labelled a failure", async () => {
  server.script(
    {
      match: { model: "judge", lastUserIncludes: "is sufficient" },
      reply: { json: { reasoning: "drug: 'Venetoclax'.", sufficient: true } },
    },
    {
      match: { model: "judge", lastUserIncludes: "Extract the fields" },
      reply: { json: { drug: "Venetoclax" } },
    },
  );
  const { result } = await verify("Venetoclax is the approved BCL-2 inhibitor.");

  expect(result.template).toMatchObject({
    sufficiency_check_performed: true,
    sufficiency_detected: true,
    sufficiency_override_applied: false,
    verify_result: true,
  });
  expect(result.metadata.failure).toBeNull();
});

test("a judge that fails leaves the check not performed, counted as sufficient", async () => {
  server.script(
    {
      match: { model: "judge", lastUserIncludes: "is sufficient" },
      reply: { status: 400, message: "bad request" },
    },
    {
      match: { model: "judge", lastUserIncludes: "Extract the fields" },
      reply: { json: { drug: "Venetoclax" } },
    },
  );
  const { ctx, result } = await verify("Venetoclax is the approved BCL-2 inhibitor.");

  expect(result.template).toMatchObject({
    sufficiency_check_performed: false,
    sufficiency_detected: true,
    sufficiency_override_applied: false,
    sufficiency_reasoning: null,
    verify_result: true,
  });
  expect(ctx.error).toBeNull();
  expect(result.metadata.warnings.some((warning) => warning.startsWith("Sufficiency check failed:"))).toBe(
    true,
  );
});

test("an answer detected as an abstention is not checked for sufficiency", async () => {
  server.script({
    match: { model: "judge", lastUserIncludes: "abstains" },
    reply: { json: { reasoning: '"I cannot say".', abstention_detected: true } },
  });
  const { result } = await verify("I cannot say which drug to use.", { abstention_enabled: true });

  expect(judgeRequests("is sufficient")).toEqual([]);
  expect(result.template?.sufficiency_check_performed).toBe(false);
  expect(result.metadata.failure?.category).toBe("abstention");
});

test("the check needs the template and skips failed trace validation, recursion and partial answers", async () => {
  const ctx = contextFor();
  ctx.artifacts.rawLlmResponse = `--- AI Message ---\n${VAGUE}`;
  expect(sufficiencyCheckStage.shouldRun?.(ctx)).toBe(false);
  ctx.artifacts.template = await loadTemplateInput(DRUG_TEMPLATE);
  expect(sufficiencyCheckStage.shouldRun?.(ctx)).toBe(true);
  for (const flag of ["traceValidationFailed", "recursionLimitReached", "responseTimeoutPartial"] as const) {
    ctx.artifacts[flag] = true;
    expect(sufficiencyCheckStage.shouldRun?.(ctx)).toBe(false);
    ctx.artifacts[flag] = false;
  }
});
