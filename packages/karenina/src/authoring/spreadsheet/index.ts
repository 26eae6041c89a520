export { closestName } from "./closest-name.js";
export { type MissingColumn, SpreadsheetColumnError, SpreadsheetError } from "./errors.js";
export {
  extractQuestionsFromFile,
  type FileExtraction,
  previewSpreadsheet,
  type SpreadsheetPreview,
} from "./extract-questions.js";
export {
  KeywordsColumnSchema,
  parseSpreadsheetMapping,
  type SpreadsheetMapping,
  type SpreadsheetMappingInput,
  SpreadsheetMappingSchema,
} from "./mapping.js";
export {
  type ReadSheet,
  readSpreadsheet,
  type SpreadsheetFormat,
  spreadsheetFormat,
} from "./read-spreadsheet.js";
export { type QuestionExtraction, questionsFromTable } from "./rows-to-questions.js";
export type { Cell, SheetRow, SheetTable } from "./sheet-table.js";
