import { KareninaError } from "../../errors/index.js";

/**
 * A results file cannot be read or written, or is not a results file at all. The message names the file
 * and, where it applies, the place in it: `run.json: $.format_version: expected "2.2", found a string "1.0"`.
 */
export class ResultsFileError extends KareninaError {
  override readonly name: string = "ResultsFileError";

  constructor(
    readonly file: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`${file}: ${message}`, options);
  }
}

/**
 * One row of a results file is not a valid result. The message names the file, the row and the field:
 * `run.json: $.results[3].metadata.execution_time: expected number, found a string "fast"` (JSON),
 * `run.jsonl: line 4: $.metadata.question_id: ...` (JSONL), `run.csv: row 2 (line 3): column execution_time: ...` (CSV).
 */
export class ResultsRowError extends ResultsFileError {
  override readonly name: string = "ResultsRowError";

  constructor(
    file: string,
    /** 0-based index of the row among the file's rows. */
    readonly row: number,
    /** The first field at fault, dotted from the row (`metadata.execution_time`) or a CSV column name. */
    readonly field: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(file, message, options);
  }
}
