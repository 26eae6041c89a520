/** Summaries of a scope's results. The result rows are hand-written test data. */
import { describe, expect, test } from "vitest";
import { parseVerificationResult, type VerificationResult } from "../../results/index.js";
import { StepEval } from "./step-eval.js";
import { TaskEvalResult } from "./task-eval-result.js";

const identity = { interface: "taskeval", model_name: "user-provided" };

function row(
  questionId: string,
  sections: { verify?: boolean | null; failure?: unknown; rubric?: Record<string, unknown> | null },
): VerificationResult {
  return parseVerificationResult({
    metadata: {
      question_id: questionId,
      template_id: "no_template",
      question_text: "Evaluate the logged output",
      answering: identity,
      parsing: { interface: "openai_endpoint", model_name: "judge" },
      execution_time: 0.1,
      timestamp: "2026-04-21 12:00:00",
      result_id: "0123456789abcdef",
      failure: sections.failure ?? null,
    },
    template: { verify_result: sections.verify ?? null },
    rubric: sections.rubric === undefined ? null : sections.rubric,
  });
}

describe("StepEval.summary", () => {
  test("counts passed and failed results and aggregates each trait's scores", () => {
    const failure = { category: "content", stage: "VerifyTemplate", reason: "field drug did not match" };
    const stepEval = new StepEval(
      {
        q1: [
          row("q1", {
            verify: true,
            rubric: {
              rubric_evaluation_performed: true,
              llm_trait_scores: { clarity: 4, tone: 1 },
              llm_trait_labels: { tone: "neutral" },
              regex_trait_scores: { cites: true },
              metric_trait_scores: { coverage: { recall: 0.5 } },
            },
          }),
          row("q1", {
            verify: false,
            failure,
            rubric: {
              rubric_evaluation_performed: true,
              llm_trait_scores: { clarity: 2, tone: 0 },
              llm_trait_labels: { tone: "formal" },
              regex_trait_scores: { cites: false },
              metric_trait_scores: { coverage: { recall: 1 } },
            },
          }),
        ],
        q2: [row("q2", {})],
      },
      { q3: ["no answer template for question q3"] },
    );

    const summary = stepEval.summary();

    expect(summary).toMatchObject({ questions: 2, total: 3, passed: 1, failed: 1, failedQuestions: 1 });
    expect(summary.rubricScores.clarity).toEqual({
      source: "llm",
      count: 2,
      passRate: null,
      mean: 3,
      min: 2,
      max: 4,
      labels: null,
    });
    expect(summary.rubricScores.tone?.labels).toEqual({ neutral: 1, formal: 1 });
    expect(summary.rubricScores.cites).toMatchObject({ source: "regex", count: 2, passRate: 0.5 });
    expect(summary.rubricScores["coverage.recall"]).toMatchObject({ source: "metric", mean: 0.75 });
  });

  test("exports snake_case JSON that reads back as results", () => {
    const stepEval = new StepEval({ q1: [row("q1", { verify: true })] }, {});
    const result = new TaskEvalResult(
      null,
      { s1: stepEval },
      "task-7",
      { team: "oncology" },
      "taskeval_0badf00d",
    );

    const exported = JSON.parse(result.exportJson());

    expect(Object.keys(exported)).toEqual(["task_id", "metadata", "run_name", "global_eval", "per_step"]);
    expect(exported.global_eval).toBeNull();
    expect(parseVerificationResult(exported.per_step.s1.verification_results.q1[0])).toEqual(
      stepEval.verificationResults.q1?.[0],
    );
    expect(JSON.parse(stepEval.exportJson())).toEqual(exported.per_step.s1);
    expect(result.summary()).toEqual({ global: null, perStep: { s1: stepEval.summary() } });
  });
});
