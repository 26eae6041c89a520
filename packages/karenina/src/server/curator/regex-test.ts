import {
  PythonRegexError,
  pythonDeadline,
  RegexEngineError,
  RegexTimeoutError,
  runRegexAsync,
  translatePythonRegex,
  withNonBlockingRegexes,
} from "../../python-regex/index.js";
import type { RegexTestResult } from "../api-types/curator.js";

/** What the rubric editor's live regex box sends. */
export interface RegexTestInput {
  readonly pattern: string;
  readonly text: string;
  readonly caseSensitive: boolean;
}

/**
 * Runs a (possibly hostile) Python pattern on a text as a regex trait would (spec 03 §4): translated with the
 * library's Python `re` semantics, compiled and run in the regex worker pool under the library's deadline and
 * awaited, so a catastrophic pattern never holds the server's event loop. A pattern Python refuses, one that
 * cannot be translated faithfully, or one that times out is an answer (`error` set), not a failure.
 */
export async function testRegex(input: RegexTestInput): Promise<RegexTestResult> {
  try {
    const translated = await withNonBlockingRegexes(() =>
      translatePythonRegex(input.pattern, { ignoreCase: !input.caseSensitive }),
    );
    const deadline = pythonDeadline(input.pattern);
    const matched = await runRegexAsync("test", translated, input.text, deadline);
    const found = matched ? await runRegexAsync("matches", translated, input.text, deadline) : [];
    return {
      matched,
      matches: found.map((m) => ({ start: m.index, end: m.index + m.text.length, text: m.text })),
      error: null,
    };
  } catch (error) {
    if (
      error instanceof PythonRegexError ||
      error instanceof RegexTimeoutError ||
      error instanceof RegexEngineError
    ) {
      return { matched: false, matches: [], error: error.message };
    }
    throw error;
  }
}
