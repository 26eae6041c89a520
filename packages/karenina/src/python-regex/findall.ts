import { type RegexDeadlineOptions, runRegex } from "./deadline-runner.js";
import { quotePattern } from "./errors.js";
import type { RegexResults } from "./regex-worker-source.js";
import { type PythonRegexOptions, translatePythonRegex } from "./translate.js";

/** A match as Python's `re.findall` returns it: the whole match, the one group's text, or a tuple of groups. */
export type FindallMatch = string | string[];

/** Compile options plus the deadline of the evaluation (see {@link setDefaultRegexTimeout}). */
export interface PythonRegexRunOptions extends PythonRegexOptions {
  /** How long the evaluation may run before it is stopped, in ms; the process default (1000 ms) otherwise. */
  timeoutMs?: number;
}

/**
 * Python's `re.findall(pattern, text)`: every non-overlapping match, left to right. With no capture group each
 * item is the matched text; with one, that group's text; with several, the list of all groups' texts (a group
 * that did not take part is `""`, as in Python). Runs under a deadline, off the host's thread.
 * @throws PythonRegexError for a pattern Python refuses or JavaScript cannot run faithfully.
 * @throws RegexTimeoutError when the pattern backtracks past the deadline on this text.
 * @example
 * pythonFindall(String.raw`\[(\d+)\]`, "see [1] and [23]"); // ["1", "23"]
 * pythonFindall(String.raw`(\w)=(\d)`, "a=1 b=2"); // [["a", "1"], ["b", "2"]]
 */
export function pythonFindall(
  pattern: string,
  text: string,
  options: PythonRegexRunOptions = {},
): FindallMatch[] {
  return run("findall", pattern, text, options);
}

/**
 * Python's `re.search(pattern, text) is not None`, under a deadline.
 * @throws PythonRegexError or RegexTimeoutError, as {@link pythonFindall}.
 * @example
 * pythonSearch("done$", "done\n"); // true
 */
export function pythonSearch(pattern: string, text: string, options: PythonRegexRunOptions = {}): boolean {
  return run("test", pattern, text, options);
}

/**
 * Python's `len(re.findall(pattern, text))`, under a deadline, without sending the matches back.
 * @throws PythonRegexError or RegexTimeoutError, as {@link pythonFindall}.
 * @example
 * pythonCountMatches("aa", "aaaaa"); // 2
 */
export function pythonCountMatches(
  pattern: string,
  text: string,
  options: PythonRegexRunOptions = {},
): number {
  return run("count", pattern, text, options);
}

function run<Op extends "findall" | "test" | "count">(
  op: Op,
  pattern: string,
  text: string,
  options: PythonRegexRunOptions,
): RegexResults[Op] {
  return runRegex(
    op,
    translatePythonRegex(pattern, options),
    text,
    pythonDeadline(pattern, options.timeoutMs),
  );
}

/** The deadline options that name a Python pattern in error messages. */
export function pythonDeadline(pattern: string, timeoutMs?: number): RegexDeadlineOptions {
  return { timeoutMs, subject: `Python regex ${quotePattern(pattern)}` };
}
