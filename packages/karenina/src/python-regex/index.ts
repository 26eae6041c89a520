export { type FindallMatch, pythonFindall, pythonSearch } from "./findall.js";
export type { PythonRegexOptions, TranslatedRegex } from "./translate.js";
export { compilePythonRegex, PythonRegexError, translatePythonRegex } from "./translate.js";
