import { createReadStream } from "node:fs";
import { readFile } from "node:fs/promises";
import { createInterface } from "node:readline";
import { jsonPath } from "../../checkpoint/index.js";
import { describeValue, dottedPath, schemaProblems } from "../../errors/index.js";
import { VerificationResultError } from "../errors.js";
import {
  parseScenarioResultRecord,
  type ScenarioResultRecord,
  ScenarioResultRecordError,
} from "../scenario/index.js";
import { parseVerificationResult, type VerificationResult } from "../verification-result.js";
import { ResultsFileError, ResultsRowError } from "./errors.js";
import { type ResultsExportMetadata, ResultsExportMetadataSchema } from "./export-metadata.js";
import { RESULTS_FORMAT_VERSION } from "./json-export.js";

/** A JSON v2.2 export, read. */
export interface ResultsExportFile {
  readonly format: "v2.2";
  readonly metadata: ResultsExportMetadata;
  /** `shared_data.rubric_definition` as written (null when absent). */
  readonly rubricDefinition: unknown;
  readonly results: VerificationResult[];
  /** `scenario_results`, each validated as a strict record (spec 08 §6.4); null when absent or empty. */
  readonly scenarioResults: ScenarioResultRecord[] | null;
}

/**
 * A legacy results file (spec 06 §2.3 `loadFromJson`): an array of result dumps (`row_index` and
 * `success` keys are dropped), a `{metadata, results: {id: row}}` wrapper, or a bare `{id: row}` map.
 */
export interface LegacyResultsFile {
  readonly format: "array" | "map";
  /** The wrapper's `metadata`, as written; null for an array or a bare map. */
  readonly metadata: Record<string, unknown> | null;
  readonly rubricDefinition: null;
  readonly results: VerificationResult[];
  readonly scenarioResults: null;
}

/** What {@link readResultsJson} and {@link parseResultsJson} return. */
export type ResultsFile = ResultsExportFile | LegacyResultsFile;

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/**
 * Validates one row; errors name the file, the row's JSON path (`$.results[3]`) and the field.
 * @internal
 */
export function validateRow(value: unknown, file: string, row: number, where: string): VerificationResult {
  try {
    return parseVerificationResult(value, where);
  } catch (error) {
    if (!(error instanceof VerificationResultError)) throw error;
    const prefix = where.startsWith("$") ? where : `${where}: $`;
    const messages = error.problems.map(
      (problem) => `${prefix}${jsonPath(problem.path).slice(1)}: ${problem.message}`,
    );
    throw new ResultsRowError(file, row, dottedPath(error.problems[0]?.path ?? []), messages.join("; "), {
      cause: error,
    });
  }
}

/**
 * Validates `scenario_results` (spec 08 §6.4): each item a strict record; an empty list reads as null.
 * @throws {ResultsFileError} `run.json: Invalid scenario result at index 0: $.scenario_results[0].x: ...`.
 */
function scenarioRecords(items: readonly unknown[], file: string): ScenarioResultRecord[] | null {
  if (items.length === 0) return null;
  return items.map((item, index) => {
    try {
      return parseScenarioResultRecord(item, index);
    } catch (error) {
      if (!(error instanceof ScenarioResultRecordError)) throw error;
      throw new ResultsFileError(file, error.message, { cause: error });
    }
  });
}

/** JSON.parse with the line and column of a syntax error in the message. */
export function parseJsonText(text: string, file: string): unknown {
  try {
    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (error) {
    const reason = (error as Error).message;
    const match = /position (\d+)/.exec(reason);
    const offset = match ? Number(match[1]) : text.length;
    const before = text.slice(0, offset);
    const line = before.split("\n").length;
    const column = offset - before.lastIndexOf("\n");
    throw new ResultsFileError(file, `not valid JSON at line ${line}, column ${column}: ${reason}`, {
      cause: error,
    });
  }
}

function exportFile(json: Record<string, unknown>, file: string): ResultsExportFile {
  if (json.format_version !== RESULTS_FORMAT_VERSION) {
    throw new ResultsFileError(
      file,
      `$.format_version: expected "${RESULTS_FORMAT_VERSION}", found ${describeValue(json.format_version)}` +
        " (only format 2.2 and the legacy array and map forms are read)",
    );
  }
  const metadata = ResultsExportMetadataSchema.safeParse(json.metadata);
  if (!metadata.success) {
    const [first] = schemaProblems(metadata.error, json.metadata);
    throw new ResultsFileError(file, `$.metadata${jsonPath(first?.path ?? []).slice(1)}: ${first?.message}`);
  }
  if (!Array.isArray(json.results)) {
    throw new ResultsFileError(
      file,
      `$.results: expected an array of results, found ${describeValue(json.results)}`,
    );
  }
  const scenarios = json.scenario_results;
  if (scenarios !== undefined && !Array.isArray(scenarios)) {
    throw new ResultsFileError(
      file,
      `$.scenario_results: expected an array, found ${describeValue(scenarios)}`,
    );
  }
  const shared = isObject(json.shared_data) ? json.shared_data : {};
  return {
    format: "v2.2",
    metadata: metadata.data,
    rubricDefinition: shared.rubric_definition ?? null,
    results: json.results.map((row, index) => validateRow(row, file, index, `$.results[${index}]`)),
    scenarioResults: scenarioRecords(scenarios ?? [], file),
  };
}

function mapRows(map: Record<string, unknown>, file: string, prefix: string): VerificationResult[] {
  return Object.entries(map).map(([key, row], index) =>
    validateRow(row, file, index, `${prefix}${jsonPath([key]).slice(1)}`),
  );
}

/**
 * Parses the text of a results file: a JSON v2.2 export (spec 06 §2.1) or one of the legacy forms of
 * §2.3 (see {@link LegacyResultsFile}). Every row is validated.
 * @param file the name used in error messages.
 * @throws {ResultsFileError} when the text is not JSON or not a results file;
 * {@link ResultsRowError} naming the row and field when a row is not a valid result.
 * @example
 * const text = exportResultsJson([], { metadata: { job_id: "job-1" } });
 * parseResultsJson(text, "run.json").metadata?.job_id; // "job-1"
 * parseResultsJson("[]", "legacy.json").format; // "array"
 */
export function parseResultsJson(text: string, file = "<results>"): ResultsFile {
  const json = parseJsonText(text, file);
  if (Array.isArray(json)) {
    return {
      format: "array",
      metadata: null,
      rubricDefinition: null,
      results: json.map((row, index) => validateRow(row, file, index, `$[${index}]`)),
      scenarioResults: null,
    };
  }
  if (!isObject(json)) {
    throw new ResultsFileError(
      file,
      `$: expected a results export (an object or an array), found ${describeValue(json)}`,
    );
  }
  if ("format_version" in json) return exportFile(json, file);
  if (Array.isArray(json.results)) {
    throw new ResultsFileError(
      file,
      `$.format_version: missing (a results array needs "format_version": "2.2")`,
    );
  }
  if (isObject(json.results)) {
    return {
      format: "map",
      metadata: isObject(json.metadata) ? json.metadata : null,
      rubricDefinition: null,
      results: mapRows(json.results, file, "$.results"),
      scenarioResults: null,
    };
  }
  return {
    format: "map",
    metadata: null,
    rubricDefinition: null,
    results: mapRows(json, file, "$"),
    scenarioResults: null,
  };
}

/** Reads a file's text; a missing or unreadable file is a {@link ResultsFileError}. */
export async function readResultsText(path: string): Promise<string> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    throw new ResultsFileError(path, `cannot read the results file (${reasonOf(error)})`, { cause: error });
  }
}

/** A short reason for a file-system error. */
export function reasonOf(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  return code === "ENOENT" ? "no such file" : code === "EISDIR" ? "is a directory" : (code ?? String(error));
}

/**
 * Reads a results file: a JSON v2.2 export or a legacy array/map (see {@link parseResultsJson}).
 * @throws {ResultsFileError} when the file is missing, not JSON or not a results file;
 * {@link ResultsRowError} (`run.json: $.results[3].metadata.execution_time: expected number, ...`) for a bad row.
 * @example
 * await writeResultsJson("read-me.json", [], { metadata: { job_id: "job-7" } });
 * const read = await readResultsJson("read-me.json");
 * read.format; // "v2.2"
 * read.metadata?.job_id; // "job-7"
 */
export async function readResultsJson(path: string): Promise<ResultsFile> {
  return parseResultsJson(await readResultsText(path), path);
}

const RESULTS_OPEN = ',"results":[';

/**
 * Streams the validated rows of a results file without holding them all. A file laid out as this project
 * and the original write v2.2 (header line, one row per line) is read line by line; any other results file
 * is read whole (see {@link readResultsJson}) and its rows yielded.
 * @throws as {@link readResultsJson}.
 * @example
 * await writeResultsJson("stream.json", [], { metadata: { job_id: "job-1" } });
 * let count = 0;
 * for await (const _row of iterResultsJson("stream.json")) count++;
 * count; // 0
 */
export async function* iterResultsJson(path: string): AsyncGenerator<VerificationResult> {
  let lines: AsyncIterator<string>;
  let stream: ReturnType<typeof createReadStream>;
  try {
    stream = createReadStream(path, { encoding: "utf8" });
    await new Promise<void>((resolve, reject) => stream.once("open", () => resolve()).once("error", reject));
    lines = createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY })[Symbol.asyncIterator]();
  } catch (error) {
    throw new ResultsFileError(path, `cannot read the results file (${reasonOf(error)})`, { cause: error });
  }
  try {
    const first = await lines.next();
    const header = first.done ? "" : first.value;
    if (!header.startsWith('{"format_version"') || !header.endsWith(RESULTS_OPEN)) {
      stream.destroy();
      yield* (await readResultsJson(path)).results;
      return;
    }
    exportFile(
      { ...(parseJsonText(`${header.slice(0, -RESULTS_OPEN.length)}}`, path) as object), results: [] },
      path,
    );
    let index = 0;
    let lineNumber = 1;
    for (;;) {
      const next = await lines.next();
      lineNumber++;
      if (next.done) throw new ResultsFileError(path, `$.results: the file ends inside the results array`);
      const line = next.value;
      if (line === "") continue;
      if (line.startsWith("]")) return;
      const text = line.endsWith(",") ? line.slice(0, -1) : line;
      const row = parseJsonText(text, `${path}: line ${lineNumber}`);
      yield validateRow(row, path, index, `$.results[${index}]`);
      index++;
    }
  } finally {
    stream.destroy();
  }
}
