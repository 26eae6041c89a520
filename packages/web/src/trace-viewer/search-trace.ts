import { compileUserRegex, MAX_MATCHES, MAX_SEARCHED_CHARS } from "./safe-regex.js";

/** How to search. */
export interface TraceSearchOptions {
  readonly caseSensitive: boolean;
  readonly regex: boolean;
}

/** A match: which block, and where in that block's body. */
export interface TraceMatch {
  readonly block: number;
  readonly start: number;
  readonly end: number;
}

export interface TraceSearchResult {
  readonly matches: readonly TraceMatch[];
  /** Why the query is not a usable regex (regex mode only). */
  readonly error?: string;
  /** True when the search stopped early (too many matches, or the text limit). */
  readonly truncated: boolean;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Every match of `query` in the bodies, in order. Plain text is matched literally; regex mode compiles the
 * query (a bad one gives `error`, never a throw). Empty matches are skipped. Bodies are searched up to
 * {@link MAX_SEARCHED_CHARS} characters in all and at most {@link MAX_MATCHES} matches are returned.
 * @example
 * searchTrace(["Hello hello"], "hello", { caseSensitive: false, regex: false }).matches.length; // 2
 */
export function searchTrace(
  bodies: readonly string[],
  query: string,
  options: TraceSearchOptions,
): TraceSearchResult {
  if (query === "") return { matches: [], truncated: false };
  const source = options.regex ? query : escapeRegex(query);
  const compiled = compileUserRegex(source, options.caseSensitive ? "g" : "gi");
  if (compiled.regex === undefined) return { matches: [], error: compiled.error, truncated: false };
  const { regex } = compiled;
  const matches: TraceMatch[] = [];
  let budget = MAX_SEARCHED_CHARS;
  let truncated = false;
  for (const [block, body] of bodies.entries()) {
    if (budget <= 0) {
      truncated = true;
      break;
    }
    const text = body.length > budget ? body.slice(0, budget) : body;
    if (text.length < body.length) truncated = true;
    budget -= text.length;
    regex.lastIndex = 0;
    for (let found = regex.exec(text); found !== null; found = regex.exec(text)) {
      if (found[0] === "") {
        regex.lastIndex += 1;
        continue;
      }
      matches.push({ block, start: found.index, end: found.index + found[0].length });
      if (matches.length >= MAX_MATCHES) return { matches, truncated: true };
    }
  }
  return { matches, truncated };
}
