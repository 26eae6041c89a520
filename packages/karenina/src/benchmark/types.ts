import type { TemplateLanguage } from "../checkpoint/index.js";
import type { QuestionRecord, Rubric } from "../model/index.js";
import type { PythonSandbox } from "../sandbox/index.js";
import type { TemplateInput, TemplateIsolation } from "../templates/index.js";
import type { HealthStatus, ReadinessReport } from "./readiness.js";

/** Metadata a new benchmark starts from (defaults as in the original). */
export interface BenchmarkOptions {
  name: string;
  description?: string;
  version?: string;
  creator?: string;
  /** Where question workspaces live on this machine; never saved in the checkpoint. */
  workspaceRoot?: string | null;
  /** How far apart its Python code runs (see `TemplateIsolation`); default `"checkpoint"`. */
  isolation?: TemplateIsolation;
}

export interface LoadOptions {
  /** Where question workspaces live on this machine; `workspace_path`s resolve under it. */
  workspaceRoot?: string | null;
  /**
   * How far apart the checkpoint's Python code runs (see `TemplateIsolation`): `"checkpoint"` (default) gives
   * the benchmark an interpreter of its own, reset between questions; `"strict"` resets it before every
   * evaluation.
   */
  isolation?: TemplateIsolation;
}

export interface SaveOptions {
  /** Keep the `deep_judgment_*` settings of LLM traits (the original strips them by default). */
  saveDeepJudgmentConfig?: boolean;
}

/** Options of {@link Benchmark.addQuestion}; they override the fields of a question object or record. */
export interface AddQuestionOptions {
  answerTemplate?: TemplateInput;
  /** A custom id instead of the computed one; refused when already used. */
  questionId?: string;
  /** Defaults to true, as in the original's Python API (its GUI passes false). */
  finished?: boolean;
  author?: Record<string, unknown> | null;
  sources?: Record<string, unknown>[] | null;
  customMetadata?: Record<string, unknown> | null;
  fewShotExamples?: Record<string, string>[] | null;
  answerNotes?: string | null;
  keywords?: string[] | null;
  workspacePath?: string | null;
}

/**
 * A question given as a plain record, as the original's dict form. As there, only these keys are read;
 * others are ignored.
 */
export interface QuestionRecordInput {
  question: string;
  raw_answer?: string;
  answer_template?: TemplateInput | null;
  question_id?: string | null;
  finished?: boolean;
  author?: Record<string, unknown> | null;
  sources?: Record<string, unknown>[] | null;
  custom_metadata?: Record<string, unknown> | null;
  few_shot_examples?: Record<string, string>[] | null;
  answer_notes?: string | null;
  [other: string]: unknown;
}

/** The clean summary of one question (spec 01 §4.4), keys in the original's order. */
export interface QuestionMetadata {
  id: string;
  question: string;
  raw_answer: string;
  date_created: string;
  date_modified: string;
  finished: boolean;
  author: unknown;
  sources: unknown;
  custom_metadata: Record<string, unknown> | null;
  has_template: boolean;
  has_rubric: boolean;
}

/** The fields `updateQuestionMetadata` changes. */
export interface QuestionMetadataUpdate {
  question?: string;
  raw_answer?: string;
  author?: unknown;
  sources?: unknown;
  custom_metadata?: Record<string, unknown>;
}

/**
 * The fields {@link Benchmark.updateQuestion} sets; an absent one is kept, `null` removes it. The template is
 * stored as given, not run (a curator saves drafts; `addAnswerTemplate` validates).
 */
export interface QuestionUpdate {
  question?: string;
  raw_answer?: string;
  answer_template?: string;
  template_language?: TemplateLanguage;
  finished?: boolean;
  author?: unknown;
  sources?: unknown;
  keywords?: string[] | null;
  /** Replaces every custom property of the question (unlike `updateQuestionMetadata`, which merges). */
  custom_metadata?: Record<string, unknown> | null;
  few_shot_examples?: unknown;
  answer_notes?: string | null;
}

export interface HealthReport {
  health_score: number;
  health_status: HealthStatus;
  timestamp: string;
  readiness: ReadinessReport;
  statistics: BenchmarkStatistics;
  recommendations: string[];
}

export interface BenchmarkSummary {
  name: string;
  version: string;
  creator: string;
  created_at: string;
  modified_at: string;
  question_count: number;
  finished_count: number;
  has_template_count: number;
  has_rubric_count: number;
  progress_percentage: number;
  is_complete: boolean;
  has_global_rubric: boolean;
  global_rubric_traits: number;
}

export interface BenchmarkStatistics extends BenchmarkSummary {
  avg_template_length: number;
  min_template_length: number;
  max_template_length: number;
  questions_with_custom_metadata: number;
}

/** What the pipeline receives for each finished question (spec 01 §4.8). */
export interface FinishedTemplate {
  question_id: string;
  question_text: string;
  question_preview: string;
  raw_answer: string;
  template_code: string;
  template_language: TemplateLanguage;
  last_modified: string;
  finished: true;
  question_rubric: Record<string, unknown> | null;
  keywords: string[] | null;
  few_shot_examples: unknown;
  workspace_path: string | null;
}

/**
 * What selecting questions for a run reads of a benchmark (a `Benchmark` is one). Naming it here, rather than
 * the class, keeps `pipeline-questions` from importing the class that imports it.
 */
export interface QuestionSource {
  getQuestionIds(): string[];
  getQuestion(id: string): Readonly<QuestionRecord>;
  isFinished(id: string): boolean;
  getTemplateLanguage(id: string): TemplateLanguage;
  getQuestionRubric(id: string): Rubric | null;
  readonly pythonSandbox: PythonSandbox;
}
