import type { PipelineQuestion, VerificationConfig } from "../pipeline/index.js";
import { templateProblem } from "../templates/index.js";
import type { Benchmark } from "./benchmark.js";
import { BenchmarkUsageError, MissingTemplateError } from "./errors.js";

function fewShotExamples(value: unknown): { question: string; answer: string }[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (example): example is { question: string; answer: string } =>
      typeof example?.question === "string" && typeof example?.answer === "string",
  );
}

/**
 * The questions a run verifies (spec 04 §1): every finished question, or exactly `questionIds`. Problems are
 * raised before any LLM call: an unknown id, a question without a template, a template that does not load
 * (template modes only; `rubric_only` runs need no template).
 * @throws {QuestionNotFoundError} for an unknown id; {@link MissingTemplateError}; {@link BenchmarkUsageError} for a
 *   template that does not load.
 */
export async function pipelineQuestions(
  benchmark: Benchmark,
  config: VerificationConfig,
  questionIds?: readonly string[],
): Promise<PipelineQuestion[]> {
  const wanted = questionIds === undefined ? undefined : new Set(questionIds);
  if (wanted) for (const id of wanted) benchmark.getQuestion(id);
  const needsTemplate = config.evaluation_mode !== "rubric_only";
  const questions: PipelineQuestion[] = [];
  for (const finished of benchmark.getFinishedTemplates(wanted)) {
    const id = finished.question_id;
    const code = finished.template_code;
    if (needsTemplate) {
      if (code.trim() === "") throw new MissingTemplateError(id);
      const problem = await templateProblem(code, finished.template_language, {
        pythonSandbox: benchmark.pythonSandbox,
      });
      if (problem !== null) throw new BenchmarkUsageError(`Question ${id}: invalid template: ${problem}`);
    }
    questions.push({
      id,
      text: finished.question_text,
      rawAnswer: finished.raw_answer,
      template: code.trim() === "" ? null : { code, language: finished.template_language },
      keywords: finished.keywords,
      fewShotExamples: fewShotExamples(finished.few_shot_examples),
      rubric: benchmark.getQuestionRubric(id),
      dynamicRubric: null,
      workspacePath: finished.workspace_path,
    });
  }
  return questions;
}
