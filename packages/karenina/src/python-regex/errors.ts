import { KareninaError } from "../errors/index.js";

const SHOWN_PATTERN_CHARS = 200;

/**
 * A pattern as error messages show it: JSON-quoted, cut to its first 200 characters when longer (a hostile
 * checkpoint's pattern may be megabytes long, and messages are stored in every result).
 */
export function quotePattern(pattern: string): string {
  if (pattern.length <= SHOWN_PATTERN_CHARS) return JSON.stringify(pattern);
  return `${JSON.stringify(pattern.slice(0, SHOWN_PATTERN_CHARS))}… (${pattern.length} characters)`;
}

/**
 * A regex ran past its deadline on a text and was stopped (its worker thread was terminated). A pattern
 * takes that long only when it backtracks catastrophically, as `(a+)+$` does on `"aaa…a!"`.
 */
export class RegexTimeoutError extends KareninaError {
  override readonly name = "RegexTimeoutError";

  constructor(
    /** What ran, for people: `Python regex "(a+)+$"`, or the strptime format a regex was built from. */
    readonly subject: string,
    readonly timeoutMs: number,
    /** In code points, as Python counts. */
    readonly textLength: number,
  ) {
    super(
      `${subject} timed out after ${timeoutMs} ms on a ${textLength}-character text and was stopped; the ` +
        "pattern backtracks catastrophically (nested quantifiers such as (a+)+?): rewrite it so that each " +
        "part of the text can be matched in only one way",
    );
  }
}

/**
 * A regex could not run: V8 refused it (a SyntaxError, or a RangeError when its backtracking stack overflows
 * on a long text) or no worker could run it. `engineMessage` is V8's own message, when V8 gave one.
 */
export class RegexEngineError extends KareninaError {
  override readonly name = "RegexEngineError";

  constructor(
    readonly subject: string,
    readonly reason: string,
    readonly engineMessage: string | null = null,
  ) {
    super(`${subject} could not run: ${reason}`);
  }
}

/** A regex deadline that is not a positive, finite number of milliseconds. */
export class InvalidRegexTimeoutError extends KareninaError {
  override readonly name = "InvalidRegexTimeoutError";

  constructor(readonly timeoutMs: number) {
    super(`regex timeout: expected a positive, finite number of milliseconds, found ${timeoutMs}`);
  }
}
