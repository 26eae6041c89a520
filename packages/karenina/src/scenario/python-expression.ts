/**
 * A lexical check that a callable source (`state_update_source`, `condition_source`, `evaluate_source`) can
 * be a Python expression. The original `eval`s these strings when it loads a checkpoint (quirk Q9); we never
 * run them at load (they run later in the Python sandbox), but still refuse, at load and in the builder, what
 * can never compile: unbalanced brackets, unterminated strings, several statements, a `def` block (Q10).
 * A subtler syntax error passes here and is reported when the sandbox compiles the source.
 */

const OPENERS: Readonly<Record<string, string>> = { "(": ")", "[": "]", "{": "}" };
const CLOSERS = new Set([")", "]", "}"]);

/** Words that start a statement, never an expression. */
const STATEMENT_KEYWORDS = new Set([
  "assert",
  "async",
  "break",
  "class",
  "continue",
  "def",
  "del",
  "elif",
  "else",
  "except",
  "finally",
  "for",
  "from",
  "global",
  "if",
  "import",
  "nonlocal",
  "pass",
  "raise",
  "return",
  "try",
  "while",
  "with",
]);

const STRING_START = /[rRbBuUfF]{0,2}('''|"""|'|")/y;

/**
 * Why a source cannot be a Python expression, or null when it may be one.
 * @example
 * pythonExpressionProblem("lambda acc, p: {**acc, 'x': 1}"); // null
 * pythonExpressionProblem("lambda acc, p: ("); // "'(' was never closed"
 */
export function pythonExpressionProblem(source: string): string | null {
  const firstWord = /^[ \t\r\n]*([A-Za-z_]+)/.exec(source)?.[1];
  if (source.trim() === "") return "the source is empty";
  if (firstWord !== undefined && STATEMENT_KEYWORDS.has(firstWord)) {
    return `'${firstWord}' starts a statement; only an expression (such as a lambda) can be compiled`;
  }
  const brackets: string[] = [];
  let i = 0;
  let sawCode = false;
  let endedLine = false;
  while (i < source.length) {
    const char = source[i] as string;
    if (char === "#") {
      while (i < source.length && source[i] !== "\n") i++;
      continue;
    }
    if (char === "\\" && (source[i + 1] === "\n" || (source[i + 1] === "\r" && source[i + 2] === "\n"))) {
      i += source[i + 1] === "\n" ? 2 : 3;
      continue;
    }
    if (char === "\n" || char === "\r") {
      if (brackets.length === 0 && sawCode) endedLine = true;
      i++;
      continue;
    }
    if (char === " " || char === "\t" || char === "\f") {
      i++;
      continue;
    }
    if (endedLine) return "the source holds more than one line of code; only one expression can be compiled";
    sawCode = true;
    STRING_START.lastIndex = i;
    const string = STRING_START.exec(source);
    if (
      string !== null &&
      (string[0].length === (string[1] as string).length || /\W/.test(source[i - 1] ?? " "))
    ) {
      const end = endOfString(source, i + string[0].length, string[1] as string);
      if (end < 0) return "unterminated string literal";
      i = end;
      continue;
    }
    if (Object.hasOwn(OPENERS, char)) brackets.push(char);
    else if (CLOSERS.has(char)) {
      const open = brackets.pop();
      if (open === undefined) return `unmatched '${char}'`;
      if (OPENERS[open] !== char)
        return `closing parenthesis '${char}' does not match opening parenthesis '${open}'`;
    } else if (char === ";" && brackets.length === 0) {
      return "';' separates statements; only one expression can be compiled";
    }
    i++;
  }
  const open = brackets.at(-1);
  return open === undefined ? null : `'${open}' was never closed`;
}

/** The index after the closing quote of a string whose body starts at `start`, or -1 if it never closes. */
function endOfString(source: string, start: number, quote: string): number {
  let i = start;
  while (i < source.length) {
    const char = source[i] as string;
    if (char === "\\") {
      i += 2;
      continue;
    }
    if (quote.length === 1 && (char === "\n" || char === "\r")) return -1;
    if (source.startsWith(quote, i)) return i + quote.length;
    i++;
  }
  return -1;
}
