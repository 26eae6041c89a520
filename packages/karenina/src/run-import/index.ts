export { type ImportAsRunOptions, type ImportedRun, importResultsAsRun } from "./import-as-run.js";
export { parseResultsText } from "./parse-results-text.js";
