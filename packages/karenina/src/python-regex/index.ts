export { runRegexAsync } from "./async-runner.js";
export {
  DEFAULT_REGEX_TIMEOUT_MS,
  type RegexDeadlineOptions,
  runRegex,
  setDefaultRegexTimeout,
} from "./deadline-runner.js";
export { InvalidRegexTimeoutError, RegexEngineError, RegexTimeoutError } from "./errors.js";
export {
  type FindallMatch,
  type PythonRegexRunOptions,
  pythonCountMatches,
  pythonDeadline,
  pythonFindall,
  pythonSearch,
} from "./findall.js";
export { withNonBlockingRegexes } from "./non-blocking.js";
export { MATCH_LIST_LIMIT, type RegexOperation, type RegexResults } from "./regex-worker-source.js";
export type { PythonRegexOptions, TranslatedRegex } from "./translate.js";
export { compilePythonRegex, PythonRegexError, translatePythonRegex } from "./translate.js";
