import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import type { ScenarioResultRecordInput } from "../scenario/index.js";
import type { VerificationResult } from "../verification-result.js";
import { writeAtomicStream } from "./atomic-stream.js";
import { ResultsFileError, ResultsRowError } from "./errors.js";
import { needsRows, type ResultsExportMetadata, RowFacts } from "./export-metadata.js";
import { headerText, scenarioText, serializeRow } from "./json-export.js";
import { reasonOf, validateRow } from "./json-import.js";

/** How {@link jsonlToResultsJson} converts. */
export interface JsonlConversionOptions {
  /** `shared_data.rubric_definition` (see `JsonExportOptions`). */
  readonly rubricDefinition?: unknown;
  /** Scenario records to write after the rows (see `JsonExportOptions.scenarioResults`). */
  readonly scenarioResults?: readonly ScenarioResultRecordInput[] | null;
  /**
   * A line that is not JSON or not a valid result is an error naming the line and field. Default false:
   * such lines (e.g. the half line a killed run leaves) are skipped and counted, as when resuming.
   */
  readonly strict?: boolean;
  /** The clock for a default `export_timestamp`. */
  readonly now?: Date;
}

/** What a conversion wrote. */
export interface JsonlConversion {
  /** Rows written (every valid line, superseded attempts included, in file order). */
  readonly rows: number;
  /** Non-blank lines skipped because they were not JSON or not valid results. */
  readonly skippedLines: number;
}

async function* validRows(
  path: string,
  strict: boolean,
  skipped: { count: number },
): AsyncGenerator<VerificationResult> {
  const stream = createReadStream(path, { encoding: "utf8" });
  try {
    await new Promise<void>((resolve, reject) => stream.once("open", () => resolve()).once("error", reject));
  } catch (error) {
    throw new ResultsFileError(path, `cannot read the run log (${reasonOf(error)})`, { cause: error });
  }
  let line = 0;
  let row = 0;
  try {
    for await (const text of createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY })) {
      line++;
      if (text.trim() === "") continue;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (error) {
        if (strict)
          throw new ResultsRowError(
            path,
            row,
            "",
            `line ${line}: not valid JSON (${(error as Error).message})`,
            {
              cause: error,
            },
          );
        skipped.count++;
        continue;
      }
      let result: VerificationResult;
      try {
        result = validateRow(value, path, row, `line ${line}`);
      } catch (error) {
        if (strict || !(error instanceof ResultsRowError)) throw error;
        skipped.count++;
        continue;
      }
      row++;
      yield result;
    }
  } finally {
    stream.destroy();
  }
}

/**
 * Converts a run log (`karenina verify --output run.jsonl`: one result per line) into a JSON v2.2 export
 * (spec 06 §2.1), streaming and atomically. Every valid line becomes a row, in file order. When `metadata`
 * lacks `verification_config` or the `job_summary` counts, the log is read twice: first to derive them
 * (`total_questions` = distinct tasks, counts from each task's latest row), then to write; memory stays flat
 * either way.
 * @throws {ResultsFileError} when the log cannot be read or the export cannot be written;
 * {@link ResultsRowError} (`run.jsonl: line 4: $.metadata.question_id: ...`) for a bad line when `strict`.
 * @example
 * const log = await RunLogWriter.open("empty-run.jsonl");
 * await log.close();
 * await jsonlToResultsJson("empty-run.jsonl", "empty-run.json", { job_id: "job-1" }); // { rows: 0, skippedLines: 0 }
 * (await readResultsJson("empty-run.json")).results; // []
 */
export async function jsonlToResultsJson(
  jsonlPath: string,
  outPath: string,
  metadata: ResultsExportMetadata,
  options: JsonlConversionOptions = {},
): Promise<JsonlConversion> {
  const strict = options.strict ?? false;
  let facts: RowFacts | null = null;
  if (needsRows(metadata)) {
    facts = new RowFacts();
    for await (const row of validRows(jsonlPath, strict, { count: 0 })) facts.add(row);
  }
  const skipped = { count: 0 };
  let rows = 0;
  await writeAtomicStream(outPath, async (emit) => {
    await emit(headerText({ metadata, rubricDefinition: options.rubricDefinition, now: options.now }, facts));
    for await (const row of validRows(jsonlPath, strict, skipped)) {
      await emit(rows === 0 ? serializeRow(row) : `,\n${serializeRow(row)}`);
      rows++;
    }
    await emit("\n]");
    if (options.scenarioResults) await emit(scenarioText(options.scenarioResults));
    await emit("}\n");
  });
  return { rows, skippedLines: skipped.count };
}
