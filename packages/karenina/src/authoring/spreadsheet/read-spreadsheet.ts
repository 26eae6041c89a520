import { readFile, stat } from "node:fs/promises";
import { extname } from "node:path";
import { parse } from "csv-parse/sync";
import { SpreadsheetError } from "./errors.js";
import {
  type Cell,
  headerNames,
  isBlankRow,
  type SheetRow,
  type SheetTable,
  typedColumns,
} from "./sheet-table.js";

/** The kinds of file questions are read from, by extension. */
export type SpreadsheetFormat = "xlsx" | "csv" | "tsv";

/** A sheet read from a file, with the workbook's sheet names (XLSX) or null (CSV, TSV). */
export interface ReadSheet {
  table: SheetTable;
  /** The sheet read (XLSX), or null. */
  sheet: string | null;
  /** Every sheet of the workbook, in order (XLSX), or null. */
  sheets: string[] | null;
}

const FORMATS: Readonly<Record<string, SpreadsheetFormat>> = {
  ".xlsx": "xlsx",
  ".csv": "csv",
  ".tsv": "tsv",
  ".txt": "tsv",
};

/**
 * The format of a file by its extension (case-insensitive): `.xlsx`; `.csv` (comma); `.tsv`, `.txt` (tab).
 * @throws {SpreadsheetError} for `.xls` (to be saved as `.xlsx`) and any other extension.
 * @example
 * spreadsheetFormat("Questions.TXT"); // "tsv"
 */
export function spreadsheetFormat(path: string): SpreadsheetFormat {
  const extension = extname(path).toLowerCase();
  const format = FORMATS[extension];
  if (format !== undefined) return format;
  if (extension === ".xls") {
    throw new SpreadsheetError(
      path,
      "the old Excel .xls format is not supported; open the file in a spreadsheet program and save it as .xlsx",
    );
  }
  throw new SpreadsheetError(
    path,
    `unsupported file type ${JSON.stringify(extension || "(no extension)")}; expected .xlsx, .csv, .tsv or .txt`,
  );
}

async function ensureFile(path: string): Promise<void> {
  const info = await stat(path).catch((error: NodeJS.ErrnoException) => {
    throw new SpreadsheetError(
      path,
      error.code === "ENOENT" ? "no such file" : `cannot read (${error.code})`,
      {
        cause: error,
      },
    );
  });
  if (!info.isFile()) throw new SpreadsheetError(path, "not a file");
}

/**
 * Builds the table from raw rows: the first non-blank row is the header, blank rows are left out. Rows longer
 * than the header are refused unless the extra cells are empty: a CSV cell holding an unquoted comma splits in
 * two, and silently dropping the tail would cut the question short.
 */
function tableFromRows(path: string, raw: readonly { row: number; cells: Cell[] }[]): SheetTable {
  const rows = raw.filter(({ cells }) => !isBlankRow(cells));
  const [header, ...data] = rows;
  if (header === undefined) return { columns: [], rows: [] };
  let width = header.cells.length;
  while (width > 0 && isBlankRow([header.cells[width - 1] ?? null])) width--;
  const out: SheetRow[] = data.map(({ row, cells }) => {
    if (!isBlankRow(cells.slice(width)) && width > 0) {
      throw new SpreadsheetError(
        path,
        `row ${row} has ${cells.length} cells but the header has ${width} columns (a cell holding the separator must be quoted)`,
      );
    }
    return { row, cells: Array.from({ length: width }, (_, i) => cells[i] ?? null) };
  });
  return { columns: headerNames(header.cells.slice(0, width)), rows: out };
}

/** Empty lines are kept as (blank) records so that record numbers are the row numbers a spreadsheet program shows. */
async function readDelimited(path: string, delimiter: string): Promise<SheetTable> {
  const text = await readFile(path, "utf8");
  let records: string[][];
  try {
    records = parse(text, {
      bom: true,
      delimiter,
      relax_column_count: true,
      relax_quotes: true,
    });
  } catch (error) {
    throw new SpreadsheetError(
      path,
      `not readable as ${delimiter === "," ? "CSV" : "TSV"}: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
  const [header = [], ...data] = records;
  const typed = typedColumns(data);
  return tableFromRows(path, [
    { row: 1, cells: header.map((text) => (text === "" ? null : text)) },
    ...typed.map((cells, index) => ({ row: index + 2, cells })),
  ]);
}

/**
 * An XLSX date as ISO text: `2024-03-01` at midnight, else `2024-03-01T14:30:00` to the nearest second
 * (Excel dates carry no time zone; ExcelJS reads them as UTC).
 */
function isoDate(date: Date): string {
  const rounded = new Date(Math.round(date.getTime() / 1000) * 1000).toISOString();
  return rounded.endsWith("T00:00:00.000Z") ? rounded.slice(0, 10) : rounded.slice(0, 19);
}

/** An ExcelJS cell value as a plain cell: formulas give their cached result, error values are empty. */
function xlsxCell(value: unknown): Cell {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return isoDate(value);
  if (typeof value === "string") return value === "" ? null : value;
  if (typeof value === "number" || typeof value === "boolean") return value;
  if (typeof value !== "object") return null;
  if ("richText" in value && Array.isArray(value.richText)) {
    return value.richText.map((part: { text?: unknown }) => String(part.text ?? "")).join("") || null;
  }
  if ("hyperlink" in value && "text" in value) return xlsxCell(value.text);
  if ("formula" in value || "sharedFormula" in value)
    return "result" in value ? xlsxCell(value.result) : null;
  return null;
}

async function readXlsx(path: string, sheet: string | undefined): Promise<ReadSheet> {
  // Loaded on first use: exceljs is large and only .xlsx files need it.
  const { default: ExcelJS } = await import("exceljs");
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.readFile(path);
  } catch (error) {
    throw new SpreadsheetError(path, `not readable as an .xlsx workbook (${(error as Error).message})`, {
      cause: error,
    });
  }
  const sheets = workbook.worksheets.map((worksheet) => worksheet.name);
  const worksheet =
    sheet === undefined ? workbook.worksheets[0] : workbook.worksheets.find((w) => w.name === sheet);
  if (worksheet === undefined) {
    const names = sheets.map((name) => JSON.stringify(name)).join(", ");
    throw new SpreadsheetError(
      path,
      sheet === undefined
        ? "the workbook has no sheets"
        : `no sheet named ${JSON.stringify(sheet)} (sheets: ${names})`,
    );
  }
  const raw: { row: number; cells: Cell[] }[] = [];
  worksheet.eachRow((row, rowNumber) => {
    const cells: Cell[] = [];
    for (let column = 1; column <= row.cellCount; column++) cells.push(xlsxCell(row.getCell(column).value));
    raw.push({ row: rowNumber, cells });
  });
  return { table: tableFromRows(path, raw), sheet: worksheet.name, sheets };
}

/**
 * Reads the question table of a spreadsheet: an XLSX sheet (the named one, else the first), a CSV or a TSV
 * file. The first non-blank row holds the column names.
 * @throws {SpreadsheetError} naming the file: missing, unsupported type (`.xls` included), unreadable, or no
 * such sheet (listing the sheets there are).
 */
export async function readSpreadsheet(path: string, options: { sheet?: string } = {}): Promise<ReadSheet> {
  const format = spreadsheetFormat(path);
  await ensureFile(path);
  if (format === "xlsx") return readXlsx(path, options.sheet);
  const table = await readDelimited(path, format === "csv" ? "," : "\t");
  return { table, sheet: null, sheets: null };
}
