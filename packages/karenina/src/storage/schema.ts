import type { Generated } from "kysely";

// The tables as Kysely sees them (built by migrations.ts). Column types common to both dialects: JSON is
// written and read as JSON text, timestamps are ISO-8601 UTC text, booleans are SQLite 0/1 or PostgreSQL
// booleans (see dialect.ts).

/** A boolean column: written as the dialect wants it, read with {@link readBool}. */
export type DbBool = boolean | number;
/** JSON text. */
export type DbJson = string;

export interface BenchmarksTable {
  id: Generated<number>;
  name: string;
  description: string | null;
  version: string | null;
  creator: string | null;
  checkpoint_path: string | null;
  /** `{global_rubric, checkpoint}`: the rubric as the original dumps it, and the checkpoint minus its questions. */
  metadata_json: DbJson;
  created_at: string;
  updated_at: string;
}

export interface QuestionsTable {
  id: string;
  question_text: string;
  raw_answer: string;
  answer_notes: string | null;
  keywords: DbJson | null;
  author: DbJson | null;
  sources: DbJson | null;
  custom_metadata: DbJson | null;
  few_shot_examples: DbJson | null;
  created_at: string;
  updated_at: string;
}

export interface BenchmarkQuestionsTable {
  id: Generated<number>;
  benchmark_id: number;
  question_id: string;
  /** Order of the question in the benchmark. */
  position: number;
  template_id: string;
  answer_template: string;
  /**
   * The template as first saved, or as the checkpoint's `original_answer_template` property says (written by
   * the original's GUI); later saves keep it. Always filled (nullable only because the column was added later).
   */
  original_answer_template: string | null;
  template_language: string;
  finished: DbBool;
  keywords: DbJson | null;
  question_rubric: DbJson | null;
  /** The checkpoint's `DataFeedItem` for this question, as saved. */
  item_json: DbJson;
  created_at: string;
  updated_at: string;
}

/**
 * One root `hasPart` entry (a scenario, spec 08 §2.13) of a scenario benchmark, in checkpoint order; added by
 * migration 0011. The benchmark's `metadata_json` keeps `hasPart: []` in its place.
 */
export interface BenchmarkScenariosTable {
  id: Generated<number>;
  benchmark_id: number;
  /** Index of the entry in `hasPart`. */
  position: number;
  /** The scenario's name (two entries of one name may exist, as in a file; the later one wins on load). */
  name: string;
  /** The checkpoint's JSON-LD scenario node, as saved. */
  scenario_json: DbJson;
  created_at: string;
}

export interface VerificationRunsTable {
  id: string;
  benchmark_id: number;
  run_name: string;
  status: string;
  config: DbJson | null;
  total_questions: number | null;
  processed_count: number;
  successful_count: number;
  failed_count: number;
  start_time: string;
  end_time: string | null;
  error_message: string | null;
  summary_stats: DbJson | null;
  created_at: string;
  updated_at: string;
  /** Created by a results import (added by migration 0008). */
  is_imported: DbBool;
}

export interface VerificationResultsTable {
  id: Generated<number>;
  run_id: string;
  result_id: string;
  question_id: string;
  template_id: string;
  answering_interface: string;
  answering_model_name: string;
  parsing_interface: string;
  parsing_model_name: string;
  replicate: number | null;
  timestamp: string;
  run_name: string | null;
  verify_result: DbBool | null;
  completed_without_errors: DbBool;
  failure_category: string | null;
  failure_stage: string | null;
  execution_time: number;
  input_tokens: number | null;
  output_tokens: number | null;
  total_tokens: number | null;
  /** The whole `VerificationResult`, as JSON in the schema's key order. */
  result_json: DbJson;
  created_at: string;
  updated_at: string;
}

/**
 * A result's digest (`resultDigest`: what summaries and comparisons read), one row per results row that has
 * one; added by migration 0007 (0005 kept it in the results row). A row whose stored result did not validate
 * when digests were filled has none. Deleted with its results row.
 */
export interface ResultDigestsTable {
  /** The `id` of the results row. */
  result_pk: number;
  /** The `RESULT_DIGEST_VERSION` `digest_json` was written with; a digest of another version is not read. */
  digest_version: number;
  /** `digestJson` of the result: ASCII-only JSON text. */
  digest_json: string;
}

/**
 * A result's results-table row (`resultTableRow`), added by migration 0009 and written when a run's table is
 * first read. Deleted with its results row, and when the result is replaced.
 */
export interface ResultTableRowsTable {
  /** The `id` of the results row. */
  result_pk: number;
  run_id: string;
  /** The `RESULT_TABLE_ROW_VERSION` `row_json` was written with; a row of another version is computed again. */
  row_version: number;
  row_json: string;
}

/**
 * A finished run's stored summary (`summarizeResults` of its rows), added by migration 0010; written when the
 * run finishes or is first summarised, and read only while valid (storage/run-summaries.ts). Deleted with its run.
 */
export interface RunSummariesTable {
  run_id: string;
  /** The `SUMMARY_FORMAT_VERSION` `summary_json` was written with; a summary of another version is not read. */
  format_version: number;
  /** How many results the run held when the summary was written. */
  result_count: number;
  /** The highest results-row `id` of the run then (null for a run without results). */
  last_result_pk: number | null;
  summary_json: string;
  created_at: string;
}

export interface ImportMetadataTable {
  id: Generated<number>;
  run_id: string;
  import_source: string;
  source_format_version: string;
  source_filename: string | null;
  source_job_id: string | null;
  source_export_timestamp: string | null;
  source_karenina_version: string | null;
  results_count: number;
  shared_rubric_definition: DbJson | null;
  created_at: string;
}

export interface TemplateResultsView {
  result_id: string;
  run_id: string;
  verification_date: string;
  run_name: string;
  benchmark_name: string;
  question_id: string;
  question_text: string;
  verify_result: DbBool | null;
  replicate: number | null;
}

export interface ModelsUsedView {
  interface: string;
  model_name: string;
  used_for_answering: DbBool;
  used_for_parsing: DbBool;
}

/** A server job (spec 07 §2.4): its kind, input, state and progress; added by migration 0004. */
export interface ServerJobsTable {
  id: string;
  kind: string;
  status: string;
  /** What the job was started with, as JSON (secrets masked by the caller). */
  input: DbJson;
  /** The job's progress counters, as JSON, updated as it goes. */
  progress: DbJson | null;
  /** What a finished job produced (a summary, not its rows), as JSON. */
  outcome: DbJson | null;
  error_message: string | null;
  /** The verification run holding the job's results, when it has one. */
  run_id: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  updated_at: string;
}

/** Every table and view of the schema. */
export interface StorageDatabase {
  benchmarks: BenchmarksTable;
  questions: QuestionsTable;
  benchmark_questions: BenchmarkQuestionsTable;
  benchmark_scenarios: BenchmarkScenariosTable;
  verification_runs: VerificationRunsTable;
  verification_results: VerificationResultsTable;
  result_digests: ResultDigestsTable;
  result_table_rows: ResultTableRowsTable;
  run_summaries: RunSummariesTable;
  import_metadata: ImportMetadataTable;
  server_jobs: ServerJobsTable;
  template_results_view: TemplateResultsView;
  models_used_view: ModelsUsedView;
}

/** A boolean column's value, whichever dialect wrote it. */
export function readBool(value: DbBool): boolean;
export function readBool(value: DbBool | null): boolean | null;
export function readBool(value: DbBool | null): boolean | null {
  return value === null ? null : Boolean(value);
}

/** JSON text of a value, or null for null and undefined. */
export const jsonOrNull = (value: unknown): string | null => (value == null ? null : JSON.stringify(value));
