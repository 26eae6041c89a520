import { Question } from "../../model/index.js";
import { closestName } from "./closest-name.js";
import { type MissingColumn, SpreadsheetColumnError } from "./errors.js";
import { parseSpreadsheetMapping, type SpreadsheetMappingInput } from "./mapping.js";
import { type Cell, cellText, type SheetTable } from "./sheet-table.js";

/** The questions found in a sheet, with what was left out. */
export interface QuestionExtraction {
  questions: Question[];
  /** Row numbers (header = row 1) of the rows dropped because their question or answer is empty. */
  dropped_rows: number[];
  /** One line per optional column the sheet lacks (each is ignored), naming the closest header if any. */
  warnings: string[];
}

/** A cell's native value for `custom_metadata`: strings trimmed, blank cells absent. */
function metadataValue(cell: Cell): Cell {
  if (typeof cell !== "string") return cell;
  const text = cell.trim();
  return text === "" ? null : text;
}

/** The keywords of a row: every keyword column split by its separator, trimmed, de-duplicated, sorted. */
function rowKeywords(
  cells: (column: string) => Cell,
  columns: readonly { column: string; separator: string }[],
) {
  const keywords = new Set<string>();
  for (const { column, separator } of columns) {
    for (const keyword of cellText(cells(column)).split(separator)) {
      const trimmed = keyword.trim();
      if (trimmed !== "") keywords.add(trimmed);
    }
  }
  return [...keywords].sort();
}

/**
 * Turns the rows of a sheet into questions (spec 06 §8), without touching any file. Rows whose question or
 * answer is empty once trimmed are dropped and their numbers returned. Each question gets the `keywords` of
 * the keyword columns, an `author` (`{"@type": "Person", name?, email?, affiliation?}`, or null when those
 * cells are empty), `answer_notes`, and `custom_metadata` holding `url` and each custom column under its
 * header with the cell's native type (null when every such cell is empty).
 * @throws {SpreadsheetColumnError} when the question or answer column is missing (optional ones only warn).
 * @throws {ModelValidationError} for an invalid mapping.
 * @example
 * const table = {
 *   columns: ["Question", "Answer", "Tags", "Year"],
 *   rows: [
 *     { row: 2, cells: ["What is 2+2?", "4", "math; easy", 2024] },
 *     { row: 3, cells: ["", "5", null, null] },
 *   ],
 * };
 * const found = questionsFromTable(table, {
 *   questionColumn: "Question",
 *   answerColumn: "Answer",
 *   keywordsColumns: [{ column: "Tags", separator: ";" }],
 *   customMetadataColumns: ["Year"],
 * });
 * found.questions[0].keywords; // ["easy", "math"]
 * found.questions[0].custom_metadata; // { Year: 2024 }
 * found.dropped_rows; // [3]
 */
export function questionsFromTable(
  table: SheetTable,
  mappingInput: SpreadsheetMappingInput,
  file = "<table>",
): QuestionExtraction {
  const mapping = parseSpreadsheetMapping(mappingInput);
  const index = new Map(table.columns.map((column, i) => [column, i]));
  const missing: MissingColumn[] = (
    [
      ["question", mapping.questionColumn],
      ["answer", mapping.answerColumn],
    ] as const
  )
    .filter(([, column]) => !index.has(column))
    .map(([role, column]) => ({ role, column, suggestion: closestName(column, table.columns) }));
  if (missing.length > 0) throw new SpreadsheetColumnError(file, missing, table.columns);

  const warnings: string[] = [];
  /** The column if the sheet has it; otherwise undefined, with a warning. */
  const optional = (role: string, column: string | undefined): string | undefined => {
    if (column === undefined || index.has(column)) return column;
    const suggestion = closestName(column, table.columns);
    const hint = suggestion === null ? "" : ` (did you mean ${JSON.stringify(suggestion)}?)`;
    const warning = `${file}: no ${role} column ${JSON.stringify(column)}; ignored${hint}`;
    if (!warnings.includes(warning)) warnings.push(warning);
    return undefined;
  };
  const authorColumns = {
    name: optional("author name", mapping.authorNameColumn),
    email: optional("author email", mapping.authorEmailColumn),
    affiliation: optional("author affiliation", mapping.authorAffiliationColumn),
  };
  const urlColumn = optional("url", mapping.urlColumn);
  const notesColumn = optional("answer notes", mapping.answerNotesColumn);
  const keywordColumns = mapping.keywordsColumns.filter(
    ({ column }) => optional("keywords", column) !== undefined,
  );
  const metadataColumns = mapping.customMetadataColumns.filter(
    (column) => optional("custom metadata", column) !== undefined,
  );

  const questions: Question[] = [];
  const dropped: number[] = [];
  for (const { row, cells } of table.rows) {
    const at = (column: string | undefined): Cell =>
      column === undefined ? null : (cells[index.get(column) ?? -1] ?? null);
    const question = cellText(at(mapping.questionColumn));
    const answer = cellText(at(mapping.answerColumn));
    if (question === "" || answer === "") {
      dropped.push(row);
      continue;
    }
    const author: Record<string, string> = {};
    for (const [key, column] of Object.entries(authorColumns)) {
      const text = cellText(at(column));
      if (text !== "") author[key] = text;
    }
    const metadata: Record<string, Cell> = {};
    const url = cellText(at(urlColumn));
    if (url !== "") metadata.url = url;
    for (const column of metadataColumns) {
      const value = metadataValue(at(column));
      if (value !== null) metadata[column] = value;
    }
    const notes = cellText(at(notesColumn));
    questions.push(
      new Question({
        question,
        raw_answer: answer,
        keywords: rowKeywords(at, keywordColumns),
        answer_notes: notes === "" ? null : notes,
        author: Object.keys(author).length > 0 ? { "@type": "Person", ...author } : null,
        custom_metadata: Object.keys(metadata).length > 0 ? metadata : null,
      }),
    );
  }
  return { questions, dropped_rows: dropped, warnings };
}
