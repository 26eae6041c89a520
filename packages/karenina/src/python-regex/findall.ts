import { compilePythonRegex, type PythonRegexOptions } from "./translate.js";

/** A match as Python's `re.findall` returns it: the whole match, the one group's text, or a tuple of groups. */
export type FindallMatch = string | string[];

/**
 * Python's `re.findall(pattern, text)`: every non-overlapping match, left to right. With no capture group each
 * item is the matched text; with one, that group's text; with several, the list of all groups' texts (a group
 * that did not take part is `""`, as in Python).
 * @throws PythonRegexError for a pattern Python refuses or JavaScript cannot run faithfully.
 * @example
 * pythonFindall(String.raw`\[(\d+)\]`, "see [1] and [23]"); // ["1", "23"]
 * pythonFindall(String.raw`(\w)=(\d)`, "a=1 b=2"); // [["a", "1"], ["b", "2"]]
 */
export function pythonFindall(
  pattern: string,
  text: string,
  options: PythonRegexOptions = {},
): FindallMatch[] {
  const regex = compilePythonRegex(pattern, options);
  const global = new RegExp(regex.source, `${regex.flags}g`);
  const groups = new RegExp(`${regex.source}|`, regex.flags).exec("")?.length ?? 1;
  const out: FindallMatch[] = [];
  for (const match of text.matchAll(global)) {
    if (groups === 1) out.push(match[0]);
    else if (groups === 2) out.push(match[1] ?? "");
    else out.push(match.slice(1).map((group) => group ?? ""));
  }
  return out;
}

/** Python's `re.search(pattern, text) is not None`. */
export function pythonSearch(pattern: string, text: string, options: PythonRegexOptions = {}): boolean {
  return compilePythonRegex(pattern, options).test(text);
}
