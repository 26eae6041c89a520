/**
 * A tokenizer for the part of Python that declarative templates use (spec 02 §10.2 tier A): names, numbers,
 * strings (every prefix but bytes and f-strings, all escapes, triple quotes), operators, and the
 * NEWLINE/INDENT/DEDENT structure with Python's implicit line joining inside brackets, backslash
 * continuations and comments.
 */

import { PyFloat } from "../../../python-repr/index.js";
import { NotDeclarativeError } from "../errors.js";

export type TokenKind = "name" | "number" | "string" | "op" | "newline" | "indent" | "dedent" | "end";

export interface Token {
  kind: TokenKind;
  /** The source text (for strings and numbers, the decoded value is in `value`). */
  text: string;
  /** A string's decoded text, or a number's value (a {@link PyFloat} for integral floats). */
  value?: string | number | PyFloat;
  line: number;
}

const NAME_START = /[\p{L}\p{Nl}_]/u;
const NAME_PART = /[\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}_]/u;
const STRING_START = /([rRuUbBfF]{0,2})('''|"""|'|")/y;
const NUMBER =
  /0[xX](?:_?[0-9a-fA-F])+|0[oO](?:_?[0-7])+|0[bB](?:_?[01])+|(?:\d(?:_?\d)*\.(?:\d(?:_?\d)*)?|\.\d(?:_?\d)*|\d(?:_?\d)*)(?:[eE][+-]?\d(?:_?\d)*)?[jJ]?/y;
const OPERATOR = /\*\*=?|\/\/=?|->|:=|[=!<>]=|<<|>>|\.\.\.|[-+*/%@&|^~<>]=?|[()[\]{},:;.=]/y;

const SIMPLE_ESCAPES: Record<string, string> = {
  "\\": "\\",
  "'": "'",
  '"': '"',
  a: "\x07",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
};

function numberValue(text: string, line: number): number | PyFloat {
  const clean = text.replaceAll("_", "");
  if (/[jJ]$/.test(clean)) throw new NotDeclarativeError("complex numbers are not supported", line);
  if (/^0[xXoObB]/.test(clean)) return checkedInteger(Number(clean), line);
  if (/[.eE]/.test(clean)) {
    const value = Number(clean);
    return Number.isInteger(value) ? new PyFloat(value) : value;
  }
  if (/^0+\d/.test(clean))
    throw new NotDeclarativeError("leading zeros in decimal integer literals are not permitted", line);
  return checkedInteger(Number(clean), line);
}

function checkedInteger(value: number, line: number): number {
  if (!Number.isSafeInteger(value)) throw new NotDeclarativeError("integer too large to read exactly", line);
  return value;
}

/** Splits Python source into tokens. */
export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  const indents = [0];
  const brackets: string[] = [];
  let i = 0;
  let line = 1;
  let atLineStart = true;
  const fail = (reason: string): never => {
    throw new NotDeclarativeError(reason, line);
  };
  const isNewline = (at: number) => source[at] === "\n" || source[at] === "\r";
  const skipNewline = () => {
    i += source[i] === "\r" && source[i + 1] === "\n" ? 2 : 1;
    line++;
  };

  const readString = (prefix: string, quote: string): string => {
    const raw = /[rR]/.test(prefix);
    const startLine = line;
    let out = "";
    for (;;) {
      if (i >= source.length) {
        line = startLine;
        return fail(
          quote.length === 3 ? "unterminated triple-quoted string literal" : "unterminated string literal",
        );
      }
      if (source.startsWith(quote, i)) {
        i += quote.length;
        return out;
      }
      const c = source[i] as string;
      if (isNewline(i)) {
        if (quote.length === 1) return fail("unterminated string literal");
        out += "\n";
        skipNewline();
      } else if (c === "\\") {
        i++;
        if (i >= source.length) continue;
        if (isNewline(i)) {
          if (raw) out += "\\\n";
          skipNewline();
        } else if (raw) {
          out += `\\${source[i]}`;
          i++;
        } else {
          out += readEscape();
        }
      } else {
        out += c;
        i++;
      }
    }
  };

  const readEscape = (): string => {
    const c = source[i] as string;
    if (Object.hasOwn(SIMPLE_ESCAPES, c)) {
      i++;
      return SIMPLE_ESCAPES[c] as string;
    }
    const octal = /^[0-7]{1,3}/.exec(source.slice(i, i + 3));
    if (octal) {
      i += octal[0].length;
      return String.fromCodePoint(Number.parseInt(octal[0], 8));
    }
    const width = c === "x" ? 2 : c === "u" ? 4 : c === "U" ? 8 : 0;
    if (width > 0) {
      const hex = source.slice(i + 1, i + 1 + width);
      if (!new RegExp(`^[0-9a-fA-F]{${width}}$`).test(hex)) return fail(`truncated \\${c} escape`);
      const code = Number.parseInt(hex, 16);
      if (code > 0x10ffff) return fail(`illegal Unicode character in \\${c} escape`);
      i += 1 + width;
      return String.fromCodePoint(code);
    }
    if (c === "N") return fail("\\N{...} escapes are not supported");
    i++;
    return `\\${c}`;
  };

  const push = (kind: TokenKind, text: string, value?: string | number | PyFloat) => {
    tokens.push(value === undefined ? { kind, text, line } : { kind, text, value, line });
  };

  while (i < source.length) {
    if (atLineStart && brackets.length === 0) {
      let column = 0;
      let j = i;
      while (source[j] === " " || source[j] === "\t" || source[j] === "\f") {
        column = source[j] === "\t" ? (Math.floor(column / 8) + 1) * 8 : source[j] === "\f" ? 0 : column + 1;
        j++;
      }
      i = j;
      if (i >= source.length) break;
      if (source[i] === "#" || isNewline(i)) {
        while (i < source.length && !isNewline(i)) i++;
        if (i < source.length) skipNewline();
        continue;
      }
      const top = indents.at(-1) as number;
      if (column > top) {
        indents.push(column);
        push("indent", "");
      }
      while (column < (indents.at(-1) as number)) {
        indents.pop();
        push("dedent", "");
      }
      if (column !== indents.at(-1)) fail("unindent does not match any outer indentation level");
      atLineStart = false;
    }
    const c = source[i] as string;
    if (c === " " || c === "\t" || c === "\f") {
      i++;
    } else if (c === "#") {
      while (i < source.length && !isNewline(i)) i++;
    } else if (c === "\\" && isNewline(i + 1)) {
      i++;
      skipNewline();
    } else if (isNewline(i)) {
      skipNewline();
      if (brackets.length === 0) {
        if (tokens.at(-1)?.kind !== "newline") push("newline", "\n");
        atLineStart = true;
      }
    } else {
      STRING_START.lastIndex = i;
      const string = STRING_START.exec(source);
      if (
        string &&
        (string[1] === "" || /^(?:[rRuU]|[rR][bBfF]|[bBfF][rR]|[bBfF])$/.test(string[1] as string))
      ) {
        const prefix = string[1] as string;
        if (/[bB]/.test(prefix)) fail("bytes literals are not supported");
        if (/[fF]/.test(prefix)) fail("f-strings are not supported");
        const start = i;
        const startLine = line;
        i += string[0].length;
        const value = readString(prefix, string[2] as string);
        tokens.push({ kind: "string", text: source.slice(start, i), value, line: startLine });
      } else if (NAME_START.test(c)) {
        const start = i;
        i += c.length;
        while (i < source.length && NAME_PART.test(source[i] as string)) i++;
        push("name", source.slice(start, i));
      } else if (/\d/.test(c) || (c === "." && /\d/.test(source[i + 1] ?? ""))) {
        NUMBER.lastIndex = i;
        const text = (NUMBER.exec(source) as RegExpExecArray)[0];
        i += text.length;
        if (NAME_PART.test(source[i] ?? "")) fail("invalid decimal literal");
        push("number", text, numberValue(text, line));
      } else {
        OPERATOR.lastIndex = i;
        const op = OPERATOR.exec(source)?.[0];
        if (op === undefined) return fail(`invalid character '${c}'`);
        i += op.length;
        if ("([{".includes(op)) brackets.push(op);
        if (")]}".includes(op)) {
          const open = brackets.pop();
          if (open === undefined || "([{".indexOf(open) !== ")]}".indexOf(op)) fail(`unmatched '${op}'`);
        }
        push("op", op);
      }
    }
  }
  if (brackets.length > 0) fail(`'${brackets.at(-1)}' was never closed`);
  if (tokens.length > 0 && tokens.at(-1)?.kind !== "newline" && tokens.at(-1)?.kind !== "dedent")
    push("newline", "\n");
  while (indents.length > 1) {
    indents.pop();
    push("dedent", "");
  }
  push("end", "");
  return tokens;
}
