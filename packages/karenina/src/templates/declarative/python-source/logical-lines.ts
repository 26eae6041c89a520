/**
 * Splits any Python source (not only the declarative subset) into its logical lines, without reading what they
 * say: enough to cut a module into top-level statements and a class body into its statements while keeping each
 * one's text byte for byte. It follows Python 3.12's lexical rules for what joins physical lines: brackets,
 * backslash continuations, strings of every prefix (triple-quoted, raw, bytes, f-strings whose replacement fields
 * may nest strings of the same quote) and comments.
 */

import { TemplateSplitError } from "../errors.js";

/** One logical line: a statement line with its continuation lines, or a blank or comment-only line. */
export interface LogicalLine {
  /** Offset of the first character of its first physical line. */
  readonly start: number;
  /** Offset just past its last line break (the source's length when it has none). */
  readonly end: number;
  /** The leading whitespace of its first physical line. */
  readonly indent: string;
  /** 1-based number of its first physical line. */
  readonly line: number;
  /** Only whitespace and perhaps a comment. */
  readonly blank: boolean;
  /** Holds a comment (outside strings). */
  readonly comment: boolean;
}

const IDENTIFIER_CHAR = /[\p{L}\p{N}\p{Mn}\p{Mc}\p{Pc}]/u;
const STRING_PREFIX = /^(?:[rRuUbBfFtT]|[rR][bBfFtT]|[bBfFtT][rR])?$/;
/** Python's parser gives up long before this; the bound keeps the recursion off the stack's limit. */
const MAX_FSTRING_NESTING = 200;
const OPENERS = "([{";
const CLOSERS = ")]}";

class Scanner {
  private i = 0;
  private line = 1;
  private sawComment = false;
  private fstringNesting = 0;

  constructor(private readonly source: string) {}

  private fail(reason: string, line = this.line): never {
    throw new TemplateSplitError(reason, line);
  }

  private isNewline(at: number): boolean {
    return this.source[at] === "\n" || this.source[at] === "\r";
  }

  private skipNewline(): void {
    this.i += this.source[this.i] === "\r" && this.source[this.i + 1] === "\n" ? 2 : 1;
    this.line++;
  }

  lines(): LogicalLine[] {
    const out: LogicalLine[] = [];
    while (this.i < this.source.length) {
      const start = this.i;
      const line = this.line;
      while (" \t\f".includes(this.source[this.i] ?? "\n")) this.i++;
      const indent = this.source.slice(start, this.i);
      this.sawComment = false;
      const blank = this.i >= this.source.length || this.isNewline(this.i) || this.source[this.i] === "#";
      this.restOfLogicalLine();
      out.push({ start, end: this.i, indent, line, blank, comment: this.sawComment });
    }
    return out;
  }

  /** Reads up to and including the line break that ends the logical line. */
  private restOfLogicalLine(): void {
    const brackets: { char: string; line: number }[] = [];
    const { source } = this;
    while (this.i < source.length) {
      const c = source[this.i] as string;
      if (this.isNewline(this.i)) {
        this.skipNewline();
        if (brackets.length === 0) return;
      } else if (c === "#") {
        this.sawComment = true;
        while (this.i < source.length && !this.isNewline(this.i)) this.i++;
      } else if (c === "\\") {
        this.i++;
        if (this.isNewline(this.i)) this.skipNewline();
        else if (this.i < source.length) this.fail("unexpected character after line continuation character");
      } else if (c === "'" || c === '"') {
        this.string(this.prefixBefore(this.i));
      } else if (OPENERS.includes(c)) {
        brackets.push({ char: c, line: this.line });
        this.i++;
      } else if (CLOSERS.includes(c)) {
        const open = brackets.pop();
        if (open === undefined || OPENERS.indexOf(open.char) !== CLOSERS.indexOf(c))
          this.fail(`unmatched '${c}'`);
        this.i++;
      } else {
        this.i++;
      }
    }
    const open = brackets.at(-1);
    if (open) this.fail(`'${open.char}' was never closed`, open.line);
  }

  /** The string prefix (`r`, `f`, `rb`, …) written right before the quote at `at`, or "" for none. */
  private prefixBefore(at: number): string {
    let k = at;
    while (k > 0 && at - k < 3 && IDENTIFIER_CHAR.test(this.source[k - 1] as string)) k--;
    const prefix = this.source.slice(k, at);
    const longer = k > 0 && IDENTIFIER_CHAR.test(this.source[k - 1] as string);
    return !longer && STRING_PREFIX.test(prefix) ? prefix : "";
  }

  /** Reads the string whose opening quote is at the current position. */
  private string(prefix: string): void {
    const { source } = this;
    const startLine = this.line;
    const quote = source.startsWith(source[this.i]?.repeat(3) ?? "", this.i)
      ? source.slice(this.i, this.i + 3)
      : (source[this.i] as string);
    const formatted = /[fFtT]/.test(prefix);
    this.i += quote.length;
    for (;;) {
      if (this.i >= source.length)
        this.fail(
          quote.length === 3 ? "unterminated triple-quoted string literal" : "unterminated string literal",
          startLine,
        );
      if (source.startsWith(quote, this.i)) {
        this.i += quote.length;
        return;
      }
      const c = source[this.i] as string;
      if (this.isNewline(this.i)) {
        if (quote.length === 1) this.fail("unterminated string literal", startLine);
        this.skipNewline();
      } else if (c === "\\") {
        this.i++;
        if (this.isNewline(this.i)) this.skipNewline();
        else this.i++;
      } else if (formatted && (c === "{" || c === "}")) {
        if (source[this.i + 1] === c) this.i += 2;
        else if (c === "{") {
          this.i++;
          this.replacementField();
        } else this.i++;
      } else {
        this.i++;
      }
    }
  }

  /** An f-string's `{expression!conversion:format}`, from just after its `{` to just after its `}`. */
  private replacementField(): void {
    if (++this.fstringNesting > MAX_FSTRING_NESTING) this.fail("f-string: too many nested expressions");
    try {
      this.replacementFieldBody();
    } finally {
      this.fstringNesting--;
    }
  }

  private replacementFieldBody(): void {
    const { source } = this;
    let depth = 0;
    while (this.i < source.length) {
      const c = source[this.i] as string;
      if (this.isNewline(this.i)) this.skipNewline();
      else if (c === "'" || c === '"') this.string(this.prefixBefore(this.i));
      else if (OPENERS.includes(c)) {
        depth++;
        this.i++;
      } else if (c === "}" && depth === 0) {
        this.i++;
        return;
      } else if (CLOSERS.includes(c)) {
        depth--;
        this.i++;
      } else if (c === ":" && depth === 0) {
        this.i++;
        this.formatSpec();
        return;
      } else this.i++;
    }
    this.fail("f-string: expecting '}'");
  }

  /** A replacement field's format spec (literal text with nested fields), up to and past the field's `}`. */
  private formatSpec(): void {
    const { source } = this;
    while (this.i < source.length) {
      const c = source[this.i] as string;
      if (this.isNewline(this.i)) this.skipNewline();
      else if (c === "{") {
        this.i++;
        this.replacementField();
      } else if (c === "}") {
        this.i++;
        return;
      } else this.i++;
    }
    this.fail("f-string: expecting '}'");
  }
}

/**
 * The logical lines of Python source, in order; together they cover the source exactly.
 * @throws TemplateSplitError when the source is not lexically valid Python (an unterminated string, an
 *   unclosed bracket).
 * For example (internal, so prose rather than a run example; `mixed-template.test.ts` pins it), the source
 * `"x = (1,\n     2)\n# note\n"` has two logical lines: the bracketed assignment, and the blank comment line.
 */
export function logicalLines(source: string): LogicalLine[] {
  return new Scanner(source).lines();
}
