import { KareninaError } from "../../errors/index.js";
import { parseSpreadsheetMapping, type SpreadsheetMappingInput } from "./mapping.js";
import { readSpreadsheet } from "./read-spreadsheet.js";
import { type QuestionExtraction, questionsFromTable } from "./rows-to-questions.js";

/** The questions extracted from a file, with what was left out and where they came from. */
export interface FileExtraction extends QuestionExtraction {
  file: string;
  /** The XLSX sheet read, or null for CSV and TSV. */
  sheet: string | null;
  /** Non-blank data rows in the sheet, dropped ones included. */
  total_rows: number;
}

/** What {@link previewSpreadsheet} returns: the first rows as text, or why the file cannot be read. */
export type SpreadsheetPreview =
  | {
      success: true;
      total_rows: number;
      columns: string[];
      preview_rows: number;
      /** The first rows, one object per row: every column's cell as text, `""` when empty. */
      data: Record<string, string>[];
      /** The XLSX sheet shown and every sheet of the workbook; null for CSV and TSV. */
      sheet: string | null;
      sheets: string[] | null;
    }
  | { success: false; error: string };

/**
 * Reads questions from a spreadsheet (spec 06 §8): `.xlsx` (the mapping's `sheet`, else the first), `.csv`,
 * or `.tsv`/`.txt` (tab-separated). The first non-blank row names the columns; see {@link questionsFromTable}
 * for how rows become questions. Add them with `benchmark.addQuestions(result.questions, { finished: false })`.
 * @throws {SpreadsheetError} for a missing, unsupported (`.xls` included) or unreadable file, or an unknown sheet.
 * @throws {SpreadsheetColumnError} when the question or answer column is missing, naming the columns there are.
 */
export async function extractQuestionsFromFile(
  path: string,
  mappingInput: SpreadsheetMappingInput,
): Promise<FileExtraction> {
  const mapping = parseSpreadsheetMapping(mappingInput);
  const read = await readSpreadsheet(path, mapping.sheet === undefined ? {} : { sheet: mapping.sheet });
  const extraction = questionsFromTable(read.table, mapping, path);
  if (mapping.sheet !== undefined && read.sheet === null) {
    extraction.warnings.unshift(
      `${path}: sheet ${JSON.stringify(mapping.sheet)} ignored: only .xlsx files have sheets`,
    );
  }
  return { ...extraction, file: path, sheet: read.sheet, total_rows: read.table.rows.length };
}

/**
 * The columns and first rows of a spreadsheet (default 100 rows), to choose a mapping before extracting. A
 * file that cannot be read gives `{success: false, error}` instead of throwing.
 * @example
 * await previewSpreadsheet("missing.csv"); // { success: false, error: "missing.csv: no such file" }
 */
export async function previewSpreadsheet(
  path: string,
  options: { sheet?: string; rows?: number } = {},
): Promise<SpreadsheetPreview> {
  try {
    const read = await readSpreadsheet(path, options.sheet === undefined ? {} : { sheet: options.sheet });
    const { columns, rows } = read.table;
    const data = rows
      .slice(0, options.rows ?? 100)
      .map(({ cells }) => Object.fromEntries(columns.map((column, i) => [column, String(cells[i] ?? "")])));
    return {
      success: true,
      total_rows: rows.length,
      columns,
      preview_rows: data.length,
      data,
      sheet: read.sheet,
      sheets: read.sheets,
    };
  } catch (error) {
    if (!KareninaError.isInstance(error)) throw error;
    return { success: false, error: error.message };
  }
}
