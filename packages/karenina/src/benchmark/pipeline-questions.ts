import { isRealTemplate } from "../model/index.js";
import type { PipelineQuestion, VerificationConfig } from "../pipeline/index.js";
import { templateProblem } from "../templates/index.js";
import { BenchmarkUsageError, MissingTemplateError } from "./errors.js";
import type { QuestionSource } from "./types.js";

/** Why a question is left out of a run. */
export type SkipReason = "draft" | "no_template" | "invalid_template";

/** A question left out of a run, and why (`detail`: the template's load error, for `invalid_template`). */
export interface SkippedQuestion {
  id: string;
  reason: SkipReason;
  detail?: string;
}

/** The questions a run verifies, and those it leaves out. */
export interface QuestionSelection {
  questions: PipelineQuestion[];
  skipped: SkippedQuestion[];
}

/** Which questions to select, and what to do with those that cannot run. */
export interface SelectQuestionsOptions {
  /** Only these questions (an unknown id throws); default every question. */
  questionIds?: readonly string[];
  /** Verify drafts (unfinished questions) too; default false: they are skipped. */
  includeDrafts?: boolean;
  /**
   * `throw` (default): a question without a template, or whose template does not load, stops the selection
   * (spec 04 §1). `skip`: it is left out and listed in `skipped`, as is a question still holding the default
   * placeholder template (whose `verify()` always returns false). `fail`: it is verified like the others and
   * its template is loaded by the pipeline's first stage, so each of its tasks becomes a failed result
   * (`template_validation`) and the other questions run (the original server's behaviour); nothing is loaded
   * before the run.
   */
  unusable?: "throw" | "skip" | "fail";
}

function fewShotExamples(value: unknown): { question: string; answer: string }[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (example): example is { question: string; answer: string } =>
      typeof example?.question === "string" && typeof example?.answer === "string",
  );
}

function pipelineQuestion(benchmark: QuestionSource, id: string): PipelineQuestion {
  const record = benchmark.getQuestion(id);
  const code = record.answer_template;
  return {
    id,
    text: record.question,
    rawAnswer: record.raw_answer,
    template: code.trim() === "" ? null : { code, language: benchmark.getTemplateLanguage(id) },
    keywords: record.keywords,
    fewShotExamples: fewShotExamples(record.few_shot_examples),
    rubric: benchmark.getQuestionRubric(id),
    dynamicRubric: null,
    workspacePath: record.workspace_path,
  };
}

/** Why a question's template cannot be verified, or null when it can. */
async function templateSkip(
  benchmark: QuestionSource,
  question: PipelineQuestion,
  unusable: "throw" | "skip",
): Promise<SkippedQuestion | null> {
  const { id, template } = question;
  const placeholder =
    template !== null && unusable === "skip" && !isRealTemplate(template.code, question.text);
  if (template === null || placeholder) {
    if (unusable === "throw") throw new MissingTemplateError(id);
    return { id, reason: "no_template", ...(placeholder ? { detail: "the default placeholder" } : {}) };
  }
  const problem = await templateProblem(template.code, template.language, {
    pythonSandbox: benchmark.pythonSandbox,
  });
  if (problem === null) return null;
  if (unusable === "throw") throw new BenchmarkUsageError(`Question ${id}: invalid template: ${problem}`);
  return { id, reason: "invalid_template", detail: problem };
}

/**
 * The questions a run verifies (spec 04 §1) and those it leaves out: every finished question (drafts too with
 * `includeDrafts`), or exactly `questionIds` among them. Templates are checked before any LLM call (template
 * modes only; `rubric_only` runs need no template): see {@link SelectQuestionsOptions.unusable}.
 * @throws {QuestionNotFoundError} for an unknown id; with `unusable: "throw"`, {@link MissingTemplateError} and
 *   {@link BenchmarkUsageError} for a template that does not load.
 * @example
 * const bench = Benchmark.create({ name: "drafts" });
 * bench.addQuestion("What is 2 + 2?", "4", { questionId: "q1", finished: false });
 * const model = { id: "m", model_name: "m", interface: "openai_endpoint", endpoint_base_url: "http://127.0.0.1:9/v1" };
 * const config = parseVerificationConfig({ answering_models: [model], parsing_models: [model] });
 * const { questions, skipped } = await selectQuestions(bench, config, { unusable: "skip" });
 * questions.length; // 0
 * skipped; // [{ id: "q1", reason: "draft" }]
 */
export async function selectQuestions(
  benchmark: QuestionSource,
  config: VerificationConfig,
  options: SelectQuestionsOptions = {},
): Promise<QuestionSelection> {
  const wanted = options.questionIds === undefined ? undefined : new Set(options.questionIds);
  if (wanted) for (const id of wanted) benchmark.getQuestion(id);
  const ids = benchmark.getQuestionIds().filter((id) => wanted === undefined || wanted.has(id));
  const unusable = options.unusable ?? "throw";
  const needsTemplate = config.evaluation_mode !== "rubric_only";
  const selection: QuestionSelection = { questions: [], skipped: [] };
  for (const id of ids) {
    if (!benchmark.isFinished(id) && options.includeDrafts !== true) {
      selection.skipped.push({ id, reason: "draft" });
      continue;
    }
    const question = pipelineQuestion(benchmark, id);
    const skip =
      needsTemplate && unusable !== "fail" ? await templateSkip(benchmark, question, unusable) : null;
    if (skip === null) selection.questions.push(question);
    else selection.skipped.push(skip);
  }
  return selection;
}

/**
 * The questions a run verifies (spec 04 §1): every finished question, or exactly `questionIds` among them.
 * Problems are raised before any LLM call: an unknown id, a question without a template, a template that does
 * not load (template modes only; `rubric_only` runs need no template).
 * @throws {QuestionNotFoundError} for an unknown id; {@link MissingTemplateError}; {@link BenchmarkUsageError} for a
 *   template that does not load.
 */
export async function pipelineQuestions(
  benchmark: QuestionSource,
  config: VerificationConfig,
  questionIds?: readonly string[],
): Promise<PipelineQuestion[]> {
  const selection = await selectQuestions(benchmark, config, {
    ...(questionIds === undefined ? {} : { questionIds }),
  });
  return selection.questions;
}
