import { expect, test } from "vitest";
import { caveatsFor, classifyFailure, type RetryCounts } from "./index.js";

const counts = (timeoutUsed: number): RetryCounts => ({
  connection: { used: 0, budget: 3 },
  timeout: { used: timeoutUsed, budget: 3 },
  rate_limit: { used: 0, budget: 5 },
  server_error: { used: 0, budget: 2 },
});

test("an auto-fail stage names the failure, before anything else", () => {
  const failure = classifyFailure({
    failedStage: "PlaceholderRetryAutoFail",
    error: "Model retry exhausted in agent loop",
    errorStage: "generate_answer",
    templateVerificationPerformed: true,
    verifyResult: false,
  });
  expect(failure).toEqual({
    category: "connection",
    stage: "PlaceholderRetryAutoFail",
    reason: "auto-fail at stage PlaceholderRetryAutoFail",
    details: null,
    group: "retry",
  });
  expect(classifyFailure({ failedStage: "DeepJudgmentRubricAutoFail" })?.category).toBe(
    "deep_judgment_rubric",
  );
});

test("a failed template verification is a content failure; a guard stage that is not an auto-fail does not count", () => {
  const failure = classifyFailure({
    failedStage: "SufficiencyCheck",
    templateVerificationPerformed: true,
    verifyResult: false,
  });
  expect(failure).toMatchObject({ category: "content", stage: "verify_template", group: "content" });
  expect(classifyFailure({ templateVerificationPerformed: false, verifyResult: false })).toBeNull();
});

test("a retryable error is a retry failure only once its budget is used up", () => {
  const input = {
    error: "Adapter call failed: TimeoutError: slow",
    errorCategory: "timeout",
    errorStage: "GenerateAnswer",
  } as const;
  expect(classifyFailure({ ...input, retryCounts: counts(3) })).toEqual({
    category: "timeout",
    stage: "GenerateAnswer",
    reason: "timeout retries exhausted",
    details: { error_message: input.error, retry_counts: counts(3) },
    group: "retry",
  });
  expect(classifyFailure({ ...input, retryCounts: counts(1) })).toMatchObject({
    category: "unexpected_error",
    stage: "GenerateAnswer",
  });
});

test("an abstention is reported with the judge's reasoning", () => {
  expect(
    classifyFailure({ abstentionDetected: true, abstentionReasoning: "  'I cannot answer'\n" }),
  ).toMatchObject({
    category: "abstention",
    reason: "'I cannot answer'",
    group: "abstained",
  });
  expect(classifyFailure({ abstentionDetected: true })?.reason).toBe("model abstained");
});

test("sufficiency fails a response the check found insufficient, not a sufficient one (fixed quirk)", () => {
  const insufficient = {
    sufficiencyCheckPerformed: true,
    sufficiencyDetected: false,
    sufficiencyOverrideApplied: true,
  };
  expect(classifyFailure({ ...insufficient, sufficiencyReasoning: "no value" })).toMatchObject({
    category: "sufficiency",
    stage: "sufficiency_check",
    reason: "no value",
  });
  expect(classifyFailure({ sufficiencyCheckPerformed: true, sufficiencyDetected: true })).toBeNull();
  expect(classifyFailure({ sufficiencyCheckPerformed: false, sufficiencyDetected: false })).toBeNull();
});

test("a template that does not load is a template_validation failure", () => {
  const failure = classifyFailure({
    templateValidationError: "SyntaxError",
    error: "Template validation failed",
    errorStage: "ValidateTemplate",
  });
  expect(failure).toMatchObject({
    category: "template_validation",
    stage: "validate_template",
    group: "system",
  });
});

test("an error in any parse stage is a parsing failure (fixed quirk); others are unexpected errors", () => {
  for (const stage of ["ParseTemplate", "AgenticParseTemplate", "DynamicParseTemplate"]) {
    expect(classifyFailure({ error: "Parsing failed", errorStage: stage })).toEqual({
      category: "parsing",
      stage,
      reason: "Parsing failed",
      details: { error_message: "Parsing failed" },
      group: "system",
    });
  }
  expect(classifyFailure({ error: "boom", errorStage: "RubricEvaluation" })).toMatchObject({
    category: "unexpected_error",
    details: { error_message: "boom" },
  });
  expect(classifyFailure({ error: "boom" })?.stage).toBe("unknown");
});

test("a reason is trimmed and cut to 500 characters; the details keep the whole message", () => {
  const message = ` ${"é".repeat(700)} `;
  const failure = classifyFailure({ error: message, errorStage: "ParseTemplate" });
  expect(Array.from(failure?.reason ?? "")).toHaveLength(500);
  expect(failure?.details).toEqual({ error_message: message });
});

test("no failure when nothing went wrong", () => {
  expect(classifyFailure({})).toBeNull();
  expect(
    classifyFailure({ templateVerificationPerformed: true, verifyResult: true, retryCounts: counts(3) }),
  ).toBeNull();
});

test("caveats come in their fixed order, independent of the verdict", () => {
  expect(
    caveatsFor({
      retryCounts: counts(1),
      parseDecisionMalformed: true,
      embeddingOverrideApplied: true,
      responseTimeoutPartial: true,
    }),
  ).toEqual(["partial_content", "embedding_override", "parse_decision_malformed", "retries_used"]);
  expect(caveatsFor({ retryCounts: counts(0) })).toEqual([]);
  expect(caveatsFor({})).toEqual([]);
});
