/**
 * Regexes typed by the user (header patterns, trace search) run in the page. They are the user's own, so a
 * slow one only slows the user's own tab, but a catastrophic one (`(a+)+$`) would freeze it on every
 * keystroke. JavaScript cannot interrupt a running regex on the main thread, so we bound the work instead:
 * a pattern longer than {@link MAX_PATTERN_LENGTH} is refused, header patterns are tried only on lines of at
 * most {@link MAX_HEADER_LINE} characters (headers are short), and a search scans at most
 * {@link MAX_SEARCHED_CHARS} characters of the trace. A bad regex gives an error message, never a throw.
 */

/** The longest pattern accepted, in characters. */
export const MAX_PATTERN_LENGTH = 500;
/** Lines longer than this are never taken for a message header. */
export const MAX_HEADER_LINE = 300;
/** A search looks at no more than this many characters of a trace. */
export const MAX_SEARCHED_CHARS = 200_000;
/** A search stops counting after this many matches. */
export const MAX_MATCHES = 5_000;

export type CompiledRegex =
  | { readonly regex: RegExp; readonly error?: undefined }
  | { readonly regex?: undefined; readonly error: string };

/**
 * The regex of `source`, or why it cannot be one.
 * @example
 * compileUserRegex("a(", "g").error; // "Invalid regular expression: /a(/g: Unterminated group"
 */
export function compileUserRegex(source: string, flags: string): CompiledRegex {
  if (source.length > MAX_PATTERN_LENGTH)
    return { error: `the pattern is longer than ${MAX_PATTERN_LENGTH} characters: shorten it` };
  try {
    return { regex: new RegExp(source, flags) };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}
