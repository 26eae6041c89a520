import { KareninaError } from "../../errors/index.js";

/**
 * A spreadsheet cannot be read as a question table: missing, of an unsupported kind, unreadable, or without
 * the sheet asked for. The message starts with the file: `data.xls: .xls files are not supported; ...`.
 */
export class SpreadsheetError extends KareninaError {
  override readonly name: string = "SpreadsheetError";

  constructor(
    readonly file: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`${file}: ${message}`, options);
  }
}

/** A required column (question or answer) the mapping names but the file does not have. */
export interface MissingColumn {
  /** What the column is for: `question` or `answer`. */
  role: string;
  column: string;
  /** The file's header closest to `column`, or null when none is close. */
  suggestion: string | null;
}

/**
 * Required columns are missing. The message names the file, each missing column with the closest header,
 * and every column the file has:
 * `data.csv: missing required column "Qestion" (question; did you mean "Question"?); the file has columns "Question", "Answer"`.
 */
export class SpreadsheetColumnError extends SpreadsheetError {
  override readonly name: string = "SpreadsheetColumnError";

  constructor(
    file: string,
    readonly missing: readonly MissingColumn[],
    readonly columns: readonly string[],
  ) {
    const listed = missing
      .map(
        ({ role, column, suggestion }) =>
          `${JSON.stringify(column)} (${role}${suggestion === null ? "" : `; did you mean ${JSON.stringify(suggestion)}?`})`,
      )
      .join(", ");
    const has =
      columns.length === 0
        ? "the file has no columns"
        : `the file has columns ${columns.map((c) => JSON.stringify(c)).join(", ")}`;
    super(file, `missing required column${missing.length === 1 ? "" : "s"} ${listed}; ${has}`);
  }
}
