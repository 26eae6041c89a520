export { type FinishedKeys, finishedKeys } from "./finished-keys.js";
export { type ReadRunLogOptions, type RunLogContents, readRunLog } from "./read-run-log.js";
export { RunLogError } from "./run-log-error.js";
export { RunLogWriter } from "./run-log-writer.js";
