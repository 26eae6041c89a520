/** Python's whitespace (`str.isspace()`), which differs from JavaScript's `\s`: no U+FEFF, but U+001C–U+001F and U+0085. */
const PYTHON_SPACE = "\\t-\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const EDGE_SPACE = new RegExp(`^[${PYTHON_SPACE}]+|[${PYTHON_SPACE}]+$`, "gu");
const SPACE_RUN = new RegExp(`[${PYTHON_SPACE}]+`, "u");

/** Python's `text.strip()`. */
export function pythonStrip(text: string): string {
  return text.replace(EDGE_SPACE, "");
}

/** Python's `text.split()`: the words between whitespace runs. */
export function pythonSplit(text: string): string[] {
  const stripped = pythonStrip(text);
  return stripped === "" ? [] : stripped.split(SPACE_RUN);
}

/** Python's `" ".join(text.split())`: whitespace runs collapsed to one space, ends trimmed. */
export function collapseWhitespace(text: string): string {
  return pythonSplit(text).join(" ");
}
