import { pythonJson } from "../../python-repr/index.js";
import {
  parseScenarioResultRecord,
  type ScenarioResultRecordInput,
  scenarioRecordForExport,
} from "../scenario/index.js";
import {
  parseVerificationResult,
  type VerificationResult,
  type VerificationResultInput,
} from "../verification-result.js";
import { type Emit, writeAtomicStream } from "./atomic-stream.js";
import { completeMetadata, needsRows, type ResultsExportMetadata, RowFacts } from "./export-metadata.js";
import { HEADER_FLOATS, ROW_FLOATS, SCENARIO_FLOATS } from "./float-specs.js";

/** The format version written by {@link exportResultsJson}. */
export const RESULTS_FORMAT_VERSION = "2.2";

/** What goes into a JSON v2.2 export beside the rows. */
export interface JsonExportOptions {
  /** The header's `metadata`; only `job_id` is required (see {@link ResultsExportMetadata}). */
  readonly metadata: ResultsExportMetadata;
  /**
   * `shared_data.rubric_definition`: the global rubric as the original dumps it (`{"llm_traits": [...]}`,
   * unset fields left out), or `{"trait_names": [...]}`; null or absent → `null`.
   */
  readonly rubricDefinition?: unknown;
  /**
   * `scenario_results` records (spec 08 §6.3, see `scenarioRecord`), validated and written in the original
   * sink's key order; when given (even empty), a `scenario_results` array is written.
   */
  readonly scenarioResults?: readonly ScenarioResultRecordInput[] | null;
  /** The clock for a default `export_timestamp`. */
  readonly now?: Date;
}

/** The header line: the header object on one line, its closing `}` dropped, then `,"results":[` and `\n`. */
export function headerText(options: JsonExportOptions, facts: RowFacts | null): string {
  const header = pythonJson(
    {
      format_version: RESULTS_FORMAT_VERSION,
      metadata: completeMetadata(options.metadata, facts, options.now),
      shared_data: { rubric_definition: options.rubricDefinition ?? null },
    },
    { floats: HEADER_FLOATS },
  );
  return `${header.slice(0, -1)},"results":[\n`;
}

/** One validated row as the export writes it: one line, schema key order, Python floats. */
export function serializeRow(row: VerificationResult): string {
  return pythonJson(row, { floats: ROW_FLOATS });
}

function rowText(row: VerificationResultInput, index: number): string {
  return serializeRow(parseVerificationResult(row, `results[${index}]`));
}

/**
 * `,"scenario_results":[`, the records one per line in the §6.3 key order, `]`.
 * @throws {ScenarioResultRecordError} when an item is not a valid record (a live execution result, say: Q31).
 */
export function scenarioText(scenarios: readonly ScenarioResultRecordInput[]): string {
  const rows = scenarios.map((scenario, index) =>
    pythonJson(scenarioRecordForExport(parseScenarioResultRecord(scenario, index)), {
      floats: SCENARIO_FLOATS,
    }),
  );
  return `,"scenario_results":[\n${rows.join(",\n")}\n]`;
}

/** The header's derived values; validates each row (a second time when writing, to keep memory flat). */
function factsOf(rows: Iterable<VerificationResultInput>): RowFacts {
  const facts = new RowFacts();
  let index = 0;
  for (const row of rows) facts.add(parseVerificationResult(row, `results[${index++}]`));
  return facts;
}

/**
 * Serializes results as the original's JSON export, format v2.2 (spec 06 §2.1), byte for byte: the header
 * on one line with Python's separators and UTF-8 kept, `,"results":[`, one row per line in the schema's key
 * order, floats with Python's `.0` (see `ROW_FLOATS`), optional `scenario_results`, `}` and a newline.
 * Each row is validated first.
 * @throws {VerificationResultError} when a row is not a valid result (`results[3]: $.metadata...`).
 * @example
 * const text = exportResultsJson([], {
 *   metadata: { job_id: "job-1", export_timestamp: "2026-04-21 12:00:00 UTC", karenina_version: "0.1.0" },
 * });
 * text.slice(0, 31); // '{"format_version": "2.2", "meta'
 * text.includes('"job_summary": {"total_questions": 0, "successful_count": 0'); // true
 * text.endsWith('"shared_data": {"rubric_definition": null},"results":[\n\n]}\n'); // true
 */
export function exportResultsJson(
  results: readonly VerificationResultInput[],
  options: JsonExportOptions,
): string {
  const rows = results.map((row, index) => parseVerificationResult(row, `results[${index}]`));
  let facts: RowFacts | null = null;
  if (needsRows(options.metadata)) {
    facts = new RowFacts();
    for (const row of rows) facts.add(row);
  }
  const scenarios = options.scenarioResults ? scenarioText(options.scenarioResults) : "";
  return `${headerText(options, facts)}${rows.map(serializeRow).join(",\n")}\n]${scenarios}}\n`;
}

/**
 * Writes a JSON v2.2 export (the bytes of {@link exportResultsJson}) streaming, one row at a time, and
 * atomically: into `<path>.partial`, renamed when complete, deleted on error. Memory stays flat for any
 * number of rows when the header needs nothing from them (`verification_config` and the `job_summary`
 * counts given); otherwise rows that do not come as an array are gathered first.
 * @throws {VerificationResultError} when a row is not a valid result; {@link ResultsFileError} when the file
 * cannot be written. In both cases no file is left behind and any previous file is unchanged.
 * @example
 * await writeResultsJson("run.json", [], { metadata: { job_id: "job-1" } });
 * (await readResultsJson("run.json")).results; // []
 */
export async function writeResultsJson(
  path: string,
  results: Iterable<VerificationResultInput> | AsyncIterable<VerificationResultInput>,
  options: JsonExportOptions,
): Promise<void> {
  let rows = results;
  let facts: RowFacts | null = null;
  if (needsRows(options.metadata)) {
    if (!Array.isArray(rows)) {
      const held: VerificationResultInput[] = [];
      for await (const row of rows) held.push(row);
      rows = held;
    }
    facts = factsOf(rows as readonly VerificationResultInput[]);
  }
  await writeAtomicStream(path, async (emit) => {
    await emit(headerText(options, facts));
    await emitRows(emit, rows);
    await emit("\n]");
    if (options.scenarioResults) await emit(scenarioText(options.scenarioResults));
    await emit("}\n");
  });
}

/**
 * {@link exportResultsJson}'s text in pieces (the header, then a piece per row, then the end), for a response
 * streamed as it is written. `rows` is called twice when the header needs the rows' counts (see
 * {@link writeResultsJson}), each time iterating the same rows in the same order; one row at a time is held.
 * @throws {VerificationResultError} when a row is not a valid result.
 */
export async function* exportResultsJsonChunks(
  rows: () => AsyncIterable<VerificationResultInput>,
  options: JsonExportOptions,
): AsyncGenerator<string> {
  let facts: RowFacts | null = null;
  if (needsRows(options.metadata)) {
    facts = new RowFacts();
    let index = 0;
    for await (const row of rows()) facts.add(parseVerificationResult(row, `results[${index++}]`));
  }
  yield headerText(options, facts);
  let index = 0;
  for await (const row of rows()) {
    yield index === 0 ? rowText(row, index) : `,\n${rowText(row, index)}`;
    index++;
  }
  yield "\n]";
  if (options.scenarioResults) yield scenarioText(options.scenarioResults);
  yield "}\n";
}

async function emitRows(
  emit: Emit,
  rows: Iterable<VerificationResultInput> | AsyncIterable<VerificationResultInput>,
): Promise<void> {
  let index = 0;
  for await (const row of rows) {
    await emit(index === 0 ? rowText(row, index) : `,\n${rowText(row, index)}`);
    index++;
  }
}
