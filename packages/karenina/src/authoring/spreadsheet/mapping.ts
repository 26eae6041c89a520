import { z } from "zod";
import { schemaProblems } from "../../errors/index.js";
import { ModelValidationError } from "../../model/index.js";

const Column = z.string().min(1, "must be a non-empty column name");

/** A column of keywords and the separator between them in a cell. */
export const KeywordsColumnSchema = z.strictObject({
  column: Column,
  separator: z.string().min(1, "must be a non-empty separator").default(","),
});

/**
 * Which columns of a spreadsheet hold what (spec 06 §8). Column names are matched exactly. The question and
 * answer columns are required; the others are optional and skipped, with a warning, when the file lacks them.
 */
export const SpreadsheetMappingSchema = z.strictObject({
  questionColumn: Column,
  answerColumn: Column,
  /** The XLSX sheet to read (default: the first). */
  sheet: z.string().optional(),
  authorNameColumn: Column.optional(),
  authorEmailColumn: Column.optional(),
  authorAffiliationColumn: Column.optional(),
  /** Stored as `custom_metadata.url`. */
  urlColumn: Column.optional(),
  /** Their keywords are merged, de-duplicated and sorted. */
  keywordsColumns: z.array(KeywordsColumnSchema).default([]),
  answerNotesColumn: Column.optional(),
  /** Each stored in `custom_metadata` under its header, with the cell's native type. */
  customMetadataColumns: z.array(Column).default([]),
});

export type SpreadsheetMapping = z.output<typeof SpreadsheetMappingSchema>;
export type SpreadsheetMappingInput = z.input<typeof SpreadsheetMappingSchema>;

const MAPPING_KEYS = Object.keys(SpreadsheetMappingSchema.shape);

/**
 * Validates a mapping and fills in its defaults.
 * @throws {ModelValidationError} `Invalid spreadsheet mapping: <field>: <problem>`.
 */
export function parseSpreadsheetMapping(input: SpreadsheetMappingInput): SpreadsheetMapping {
  const parsed = SpreadsheetMappingSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  throw new ModelValidationError(
    "spreadsheet mapping",
    schemaProblems(parsed.error, input, (path) => (path.length === 0 ? MAPPING_KEYS : undefined)),
  );
}
