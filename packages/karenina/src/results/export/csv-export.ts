import { stringify } from "csv-stringify/sync";
import { type Rubric, rubricTraitNames } from "../../model/index.js";
import { ownValue } from "../../plain-data/index.js";
import { type FloatSpec, floatRepr, PyFloat, pyRepr, pythonJson } from "../../python-repr/index.js";
import { displayString } from "../model-identity.js";
import {
  parseVerificationResult,
  type VerificationResult,
  type VerificationResultInput,
} from "../verification-result.js";
import { writeAtomicStream } from "./atomic-stream.js";
import { exportTimestamp, packageVersion, type ResultsExportMetadata } from "./export-metadata.js";

/** What goes into a CSV export beside the rows. */
export interface CsvExportOptions {
  /** `job_id`, and optionally `export_timestamp` (default now) and `karenina_version` (default ours). */
  readonly metadata: Pick<ResultsExportMetadata, "job_id" | "export_timestamp" | "karenina_version">;
  /**
   * The global rubric, or its trait names: its traits get one `rubric_<trait>` column each; every other
   * trait goes into `question_specific_rubrics`. None: every trait is question-specific.
   */
  readonly globalRubric?: Rubric | readonly string[] | null;
  /** The clock for a default `export_timestamp`. */
  readonly now?: Date;
}

/** The header of an export with no rows. */
export const EMPTY_CSV_COLUMNS = [
  "question_id",
  "success",
  "error",
  "question_text",
  "raw_llm_response",
  "keywords",
  "export_timestamp",
  "karenina_version",
  "job_id",
] as const;

/** The columns before the trait columns. */
export const LEADING_CSV_COLUMNS = [
  "question_id",
  "success",
  "error",
  "question_text",
  "raw_llm_response",
  "parsed_gt_response",
  "parsed_llm_response",
  "template_verification_performed",
  "verify_result",
  "verify_granular_result",
  "rubric_evaluation_performed",
  "keywords",
] as const;

/** The columns after the trait columns. */
export const TRAILING_CSV_COLUMNS = [
  "answering_model",
  "parsing_model",
  "replicate",
  "execution_time",
  "timestamp",
  "answering_system_prompt",
  "parsing_system_prompt",
  "run_name",
  "export_timestamp",
  "karenina_version",
  "job_id",
  "embedding_check_performed",
  "embedding_similarity_score",
  "embedding_override_applied",
  "embedding_model_used",
  "answering_mcp_servers",
  "deep_judgment_mode",
  "deep_judgment_performed",
  "extracted_excerpts",
  "attribute_reasoning",
  "deep_judgment_stages_completed",
  "deep_judgment_model_calls",
  "deep_judgment_excerpt_retry_count",
  "attributes_without_excerpts",
  "deep_judgment_search_enabled",
  "hallucination_risk_assessment",
  "deep_judgment_rubric_performed",
  "extracted_rubric_excerpts",
  "rubric_trait_reasoning",
  "deep_judgment_rubric_scores",
  "standard_rubric_scores",
  "trait_metadata",
  "traits_without_valid_excerpts",
  "rubric_hallucination_risk_assessment",
  "total_deep_judgment_model_calls",
  "total_traits_evaluated",
  "total_excerpt_retries",
  "metric_trait_confusion_lists",
  "metric_trait_metrics",
  "usage_metadata",
  "agent_metrics",
] as const;

/** The column that holds the scores of traits that are not global, as a JSON object. */
export const QUESTION_SPECIFIC_COLUMN = "question_specific_rubrics";

// ---------------------------------------------------------------------------------------------------------
// Cell encodings (spec 06 §2.2)

/** Python truthiness of a JSON value. */
function falsy(value: unknown): boolean {
  if (value === null || value === undefined || value === false || value === 0 || value === "") return true;
  if (Array.isArray(value)) return value.length === 0;
  if (value instanceof PyFloat) return value.value === 0;
  return typeof value === "object" && Object.keys(value).length === 0;
}

/** A complex value: `json.dumps` (non-ASCII escaped), or `""` when falsy. */
const json = (value: unknown, floats?: FloatSpec): string =>
  falsy(value) ? "" : pythonJson(value, { ensureAscii: true, ...(floats ? { floats } : {}) });

/** A plain boolean: `True` / `False`. */
const bool = (value: boolean | undefined): string => (value ? "True" : "False");

/** A scalar as Python's csv writer writes it: `None` → `""`, `str()` otherwise. */
const scalar = (value: string | number | boolean | null | undefined): string =>
  value === null || value === undefined ? "" : typeof value === "string" ? value : pyRepr(value);

/** A deep-judgment counter: its value, or `0` when the section is absent (deep judgment off), as the original. */
const count = (value: number | undefined): string => String(value ?? 0);

/** `""` when falsy, else `str()`. */
const orEmpty = (value: string | number | null | undefined): string => (falsy(value) ? "" : scalar(value));

/** Python's `str()` of a trait score: `True`, `4`, `0.5`, `{'precision': 1.0}`; strings as they are. */
const traitCell = (value: unknown): string =>
  value === undefined || value === null ? "" : typeof value === "string" ? value : pyRepr(value);

const excerpts: FloatSpec = { "*": { "*": { similarity_score: true } } };

/**
 * A row's trait scores merged llm → regex → callable → metric (later wins, as the original's
 * `get_all_trait_scores` without agentic scores); metric values are floats.
 */
export function mergedTraitScores(row: VerificationResult): Record<string, unknown> {
  const rubric = row.rubric;
  if (rubric === null) return {};
  const metric = Object.fromEntries(
    Object.entries(rubric.metric_trait_scores ?? {}).map(([name, scores]) => [
      name,
      Object.fromEntries(Object.entries(scores).map(([key, score]) => [key, new PyFloat(score)])),
    ]),
  );
  return {
    ...rubric.llm_trait_scores,
    ...rubric.regex_trait_scores,
    ...rubric.callable_trait_scores,
    ...metric,
  };
}

/** Trait names the original refuses as column names: longer than 255 characters, or holding CR, LF or NUL. */
const usableTraitName = (name: string) => Array.from(name).length <= 255 && !/[\r\n\0]/.test(name);

/** Python's `sorted()` of strings: by code point. */
function sortedByCodePoint(names: Iterable<string>): string[] {
  return [...names].sort((a, b) => {
    const left = Array.from(a);
    const right = Array.from(b);
    for (let i = 0; i < Math.min(left.length, right.length); i++) {
      const diff = (left[i]?.codePointAt(0) ?? 0) - (right[i]?.codePointAt(0) ?? 0);
      if (diff !== 0) return diff;
    }
    return left.length - right.length;
  });
}

type Cells = Record<string, string>;

function rowCells(
  row: VerificationResult,
  scores: Record<string, unknown>,
  global: readonly string[],
  specific: readonly string[] | null,
  file: { export_timestamp: string; karenina_version: string; job_id: string },
): Cells {
  const { metadata, template, rubric, deep_judgment: dj, deep_judgment_rubric: djr } = row;
  const cells: Cells = {
    question_id: metadata.question_id,
    success: bool(metadata.failure === null),
    error: metadata.failure?.reason ?? "",
    question_text: metadata.question_text,
    raw_llm_response: template?.raw_llm_response ?? "",
    parsed_gt_response: json(template?.parsed_gt_response),
    parsed_llm_response: json(template?.parsed_llm_response),
    template_verification_performed: bool(template?.template_verification_performed),
    verify_result: json(template?.verify_result),
    verify_granular_result: json(template?.verify_granular_result, true),
    rubric_evaluation_performed: bool(rubric?.rubric_evaluation_performed),
    keywords: json(metadata.keywords),
  };
  for (const name of global) cells[`rubric_${name}`] = traitCell(ownValue(scores, name));
  if (specific !== null) {
    const own = Object.fromEntries(
      specific.filter((name) => Object.hasOwn(scores, name)).map((name) => [name, scores[name]]),
    );
    cells[QUESTION_SPECIFIC_COLUMN] = pythonJson(own, { ensureAscii: true });
  }
  Object.assign(cells, {
    answering_model: displayString(metadata.answering),
    parsing_model: displayString(metadata.parsing),
    replicate: orEmpty(metadata.replicate),
    execution_time: floatRepr(metadata.execution_time),
    timestamp: metadata.timestamp,
    answering_system_prompt: orEmpty(metadata.answering_system_prompt),
    parsing_system_prompt: orEmpty(metadata.parsing_system_prompt),
    run_name: orEmpty(metadata.run_name),
    ...file,
    embedding_check_performed: bool(template?.embedding_check_performed),
    embedding_similarity_score: falsy(template?.embedding_similarity_score)
      ? ""
      : floatRepr(template?.embedding_similarity_score ?? 0),
    embedding_override_applied: bool(template?.embedding_override_applied),
    embedding_model_used: orEmpty(template?.embedding_model_used),
    answering_mcp_servers: json(template?.answering_mcp_servers),
    deep_judgment_mode: scalar(dj?.deep_judgment_mode),
    deep_judgment_performed: bool(dj?.deep_judgment_performed),
    extracted_excerpts: json(dj?.extracted_excerpts, excerpts),
    attribute_reasoning: json(dj?.attribute_reasoning),
    deep_judgment_stages_completed: json(dj?.deep_judgment_stages_completed),
    deep_judgment_model_calls: count(dj?.deep_judgment_model_calls),
    deep_judgment_excerpt_retry_count: count(dj?.deep_judgment_excerpt_retry_count),
    attributes_without_excerpts: json(dj?.attributes_without_excerpts),
    deep_judgment_search_enabled: bool(dj?.deep_judgment_search_enabled),
    hallucination_risk_assessment: json(dj?.hallucination_risk_assessment),
    deep_judgment_rubric_performed: bool(djr?.deep_judgment_rubric_performed),
    extracted_rubric_excerpts: json(djr?.extracted_rubric_excerpts, excerpts),
    rubric_trait_reasoning: json(djr?.rubric_trait_reasoning),
    deep_judgment_rubric_scores: json(djr?.deep_judgment_rubric_scores),
    standard_rubric_scores: json(djr?.standard_rubric_scores),
    trait_metadata: json(djr?.trait_metadata),
    traits_without_valid_excerpts: json(djr?.traits_without_valid_excerpts),
    rubric_hallucination_risk_assessment: json(djr?.rubric_hallucination_risk_assessment),
    total_deep_judgment_model_calls: count(djr?.total_deep_judgment_model_calls),
    total_traits_evaluated: count(djr?.total_traits_evaluated),
    total_excerpt_retries: count(djr?.total_excerpt_retries),
    metric_trait_confusion_lists: json(rubric?.metric_trait_confusion_lists),
    metric_trait_metrics: json(rubric?.metric_trait_scores, true),
    usage_metadata: json(template?.usage_metadata),
    agent_metrics: json(template?.agent_metrics),
  });
  return cells;
}

function globalNames(globalRubric: CsvExportOptions["globalRubric"]): Set<string> {
  if (globalRubric === null || globalRubric === undefined) return new Set();
  return new Set(Array.isArray(globalRubric) ? globalRubric : rubricTraitNames(globalRubric as Rubric));
}

/**
 * Serializes results as the original's job CSV export (spec 06 §2.2): Python's csv dialect (`\r\n`, quotes
 * only where needed), the column rules (one `rubric_<trait>` column per global trait seen, sorted;
 * `question_specific_rubrics` for the others) and cell encodings (`True`/`False`; complex values as JSON with
 * non-ASCII escaped; falsy → `""`, so a `false` verify_result is `""` as in the original; the five
 * deep-judgment counters `0` when deep judgment is off; trait cells as Python's `str()`). No rows: the short
 * header only. Rows are validated first.
 * @throws {VerificationResultError} when a row is not a valid result.
 * @example
 * exportResultsCsv([], { metadata: { job_id: "job-1" } });
 * // "question_id,success,error,question_text,raw_llm_response,keywords,export_timestamp,karenina_version,job_id\r\n"
 */
export function exportResultsCsv(
  results: readonly VerificationResultInput[],
  options: CsvExportOptions,
): string {
  const rows = results.map((row, index) => parseVerificationResult(row, `results[${index}]`));
  if (rows.length === 0) return stringify([[...EMPTY_CSV_COLUMNS]], { record_delimiter: "\r\n" });
  const scores = rows.map(mergedTraitScores);
  const layout = csvLayout(
    scores.flatMap((map) => Object.keys(map)),
    options,
  );
  const records = rows.map((row, index) => layout.record(row, scores[index] ?? {}));
  return stringify([layout.columns, ...records], { record_delimiter: "\r\n", quoted_match: /[\r\n]/ });
}

/** The columns of a CSV export whose rows hold these trait names, and a row's record under them. */
function csvLayout(traitNames: Iterable<string>, options: CsvExportOptions) {
  const global = globalNames(options.globalRubric);
  const seen = new Set([...traitNames].filter(usableTraitName));
  const globalTraits = sortedByCodePoint([...seen].filter((name) => global.has(name)));
  const specificTraits = sortedByCodePoint([...seen].filter((name) => !global.has(name)));
  const specific = specificTraits.length > 0 ? specificTraits : null;
  const columns = [
    ...LEADING_CSV_COLUMNS,
    ...globalTraits.map((name) => `rubric_${name}`),
    ...(specific ? [QUESTION_SPECIFIC_COLUMN] : []),
    ...TRAILING_CSV_COLUMNS,
  ];
  const file = {
    export_timestamp: options.metadata.export_timestamp ?? exportTimestamp(options.now),
    karenina_version: options.metadata.karenina_version ?? packageVersion(),
    job_id: options.metadata.job_id,
  };
  const record = (row: VerificationResult, scores: Record<string, unknown>) => {
    const cells = rowCells(row, scores, globalTraits, specific, file);
    return columns.map((column) => cells[column] ?? "");
  };
  return { columns, record };
}

/**
 * {@link exportResultsCsv}'s text in pieces (the header line, then a line per row), for a response streamed
 * as it is written. `rows` is called twice, each time iterating the same rows in the same order: once for the
 * trait columns (the header needs every row's), once to write; so one row at a time is held, not the file.
 * @throws {VerificationResultError} when a row is not a valid result.
 */
export async function* exportResultsCsvChunks(
  rows: () => AsyncIterable<VerificationResultInput>,
  options: CsvExportOptions,
): AsyncGenerator<string> {
  const names = new Set<string>();
  let index = 0;
  for await (const input of rows())
    for (const name of Object.keys(mergedTraitScores(parseVerificationResult(input, `results[${index++}]`))))
      names.add(name);
  if (index === 0) {
    yield stringify([[...EMPTY_CSV_COLUMNS]], { record_delimiter: "\r\n" });
    return;
  }
  const layout = csvLayout(names, options);
  const line = (record: readonly string[]) =>
    stringify([record], { record_delimiter: "\r\n", quoted_match: /[\r\n]/ });
  yield line(layout.columns);
  index = 0;
  for await (const input of rows()) {
    const row = parseVerificationResult(input, `results[${index++}]`);
    yield line(layout.record(row, mergedTraitScores(row)));
  }
}

/**
 * Writes {@link exportResultsCsv}'s text atomically (`<path>.partial`, renamed when complete).
 * @throws {VerificationResultError} for an invalid row; {@link ResultsFileError} when the file cannot be written.
 * @example
 * await writeResultsCsv("run.csv", [], { metadata: { job_id: "job-1" } });
 * (await readResultsCsv("run.csv")).results; // []
 */
export async function writeResultsCsv(
  path: string,
  results: readonly VerificationResultInput[],
  options: CsvExportOptions,
): Promise<void> {
  const text = exportResultsCsv(results, options);
  await writeAtomicStream(path, (emit) => emit(text));
}
