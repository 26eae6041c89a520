export { type FloatSpec, type PythonJsonOptions, pythonJson } from "../../python-repr/index.js";
export { type Emit, writeAtomicStream } from "./atomic-stream.js";
export {
  type CsvExportOptions,
  EMPTY_CSV_COLUMNS,
  exportResultsCsv,
  exportResultsCsvChunks,
  LEADING_CSV_COLUMNS,
  QUESTION_SPECIFIC_COLUMN,
  TRAILING_CSV_COLUMNS,
  writeResultsCsv,
} from "./csv-export.js";
export {
  CSV_UNKNOWN_TEMPLATE_ID,
  parseResultsCsv,
  type ResultsCsvFile,
  readResultsCsv,
} from "./csv-import.js";
export { ResultsFileError, ResultsRowError } from "./errors.js";
export {
  type ExportModelSummary,
  ExportModelSummarySchema,
  type ExportVerificationConfig,
  ExportVerificationConfigSchema,
  exportTimestamp,
  type JobSummary,
  JobSummarySchema,
  type ResultsExportMetadata,
  ResultsExportMetadataSchema,
  suggestedExportFilename,
} from "./export-metadata.js";
export {
  exportResultsJson,
  exportResultsJsonChunks,
  type JsonExportOptions,
  RESULTS_FORMAT_VERSION,
  writeResultsJson,
} from "./json-export.js";
export {
  iterResultsJson,
  type LegacyResultsFile,
  parseResultsJson,
  type ResultsExportFile,
  type ResultsFile,
  readResultsJson,
} from "./json-import.js";
export { type JsonlConversion, type JsonlConversionOptions, jsonlToResultsJson } from "./jsonl.js";
