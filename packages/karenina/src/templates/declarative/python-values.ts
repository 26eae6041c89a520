/**
 * Python value semantics on JSON-shaped values (spec 02 §6, general rules): `str()`, `repr()`, `float()`,
 * truthiness, `==`, `str.strip()` / `str.split()` with Python's whitespace set, and `string.punctuation`.
 *
 * Values are JSON values (null, boolean, number, string, array, plain object) plus {@link PyFloat}. A JS number
 * is a Python int when it is an integer and a float otherwise; a float with an integral value (`5.0`), which JS
 * cannot tell from `5`, is boxed as a `PyFloat` wherever the difference shows (`str(5.0)` is `"5.0"`). `repr()`
 * and `PyFloat` live in `src/python-repr/`, which the raw trace of `llm/` uses too.
 */
import { PyFloat, pyRepr, stringRepr } from "../../python-repr/index.js";
import { VerificationError } from "./errors.js";

/** The number inside a Python int or float value, or undefined for anything else (booleans included). */
function numberOf(value: unknown): number | undefined {
  if (typeof value === "number") return value;
  if (value instanceof PyFloat) return value.value;
  return undefined;
}

/** Whether a value is a Python float (a non-integral number or a {@link PyFloat}). */
function isFloat(value: unknown): boolean {
  return value instanceof PyFloat || (typeof value === "number" && !Number.isInteger(value));
}

/** Python's whitespace (`str.isspace()`): JS `\s` without U+FEFF, plus U+001C–U+001F and U+0085. */
export const PYTHON_WHITESPACE =
  "\t\n\v\f\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000";

const WS_CLASS = `[${PYTHON_WHITESPACE.replace(/[\\\]^-]/g, "\\$&")}]`;
const LEADING_WS = new RegExp(`^${WS_CLASS}+`, "u");
const WS_CHAR = new RegExp(`^${WS_CLASS}$`, "u");
const WS_RUN = new RegExp(`${WS_CLASS}+`, "gu");

/**
 * Python `str.strip()` with no argument.
 * @example
 * pyStrip("\x1c hi \x85"); // "hi"
 */
export function pyStrip(text: string): string {
  // The end is found by stepping back over whitespace: a `\s+$` search is quadratic on a long inner run.
  let end = text.length;
  while (end > 0 && WS_CHAR.test(text[end - 1] as string)) end--;
  return text.slice(0, end).replace(LEADING_WS, "");
}

/**
 * Python `str.split()` with no argument: the non-empty runs between whitespace.
 * @example
 * pySplit("  a b\u3000c "); // ["a", "b", "c"]
 */
export function pySplit(text: string): string[] {
  const stripped = pyStrip(text);
  return stripped === "" ? [] : stripped.split(WS_RUN);
}

/** Python `re.sub(r"\s+", " ", text).strip()`. */
export function pyCollapseWhitespace(text: string): string {
  return pyStrip(text.replace(WS_RUN, " "));
}

/** Python's `string.punctuation`: the 32 printable ASCII characters that are not letters, digits or space. */
export const PYTHON_PUNCTUATION = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";

const PUNCTUATION_RUN = /[!-/:-@[-`{-~]/g;

/** Deletes every character of `string.punctuation` (ASCII only; an en dash stays). */
export function removePunctuation(text: string): string {
  return text.replace(PUNCTUATION_RUN, "");
}

/** The Python type name of a value, as error messages show it (`'NoneType'`, `'list'`). */
function pyTypeName(value: unknown): string {
  if (value === null || value === undefined) return "NoneType";
  if (typeof value === "boolean") return "bool";
  if (typeof value === "string") return "str";
  if (Array.isArray(value)) return "list";
  if (isFloat(value)) return "float";
  if (typeof value === "number") return "int";
  return "dict";
}

/**
 * Python `str()`: the text itself for a str, `repr()` for everything else (`None`, `True`, `5.0`, `['a']`).
 * @example
 * pyStr(null); // "None"
 * pyStr(1e16); // "10000000000000000"
 * pyStr(["a", 1]); // "['a', 1]"
 */
export function pyStr(value: unknown): string {
  return typeof value === "string" ? value : pyRepr(value);
}

/**
 * Python truthiness (`bool(x)`): false for None, False, 0, 0.0, "", [] and {}; the string "false" is true.
 * @example
 * pyTruthy("false"); // true
 * pyTruthy([]); // false
 */
export function pyTruthy(value: unknown): boolean {
  if (value === null || value === undefined) return false;
  if (typeof value === "boolean") return value;
  if (typeof value === "string") return value.length > 0;
  if (Array.isArray(value)) return value.length > 0;
  const n = numberOf(value);
  if (n !== undefined) return n !== 0;
  return Object.keys(value as object).length > 0;
}

/** The numeric value Python's `==` sees for ints, floats and bools, else undefined. */
function numericValue(value: unknown): number | undefined {
  return typeof value === "boolean" ? Number(value) : numberOf(value);
}

/**
 * Python `==`: `1 == 1.0 == True`, strings by code points, lists elementwise, dicts by keys and values.
 * @example
 * pyEquals(1, true); // true
 * pyEquals("1", 1); // false
 */
export function pyEquals(a: unknown, b: unknown): boolean {
  const x = numericValue(a);
  const y = numericValue(b);
  if (x !== undefined || y !== undefined) return x === y;
  if (a === null || a === undefined || b === null || b === undefined) {
    return (a === null || a === undefined) && (b === null || b === undefined);
  }
  if (typeof a === "string" || typeof b === "string") return a === b;
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => pyEquals(v, b[i]))
    );
  }
  const left = Object.entries(a as Record<string, unknown>);
  const right = b as Record<string, unknown>;
  return (
    left.length === Object.keys(right).length &&
    left.every(([key, v]) => Object.hasOwn(right, key) && pyEquals(v, right[key]))
  );
}

/** What `float()` strips: ASCII whitespace and non-ASCII Unicode whitespace, but not U+001C–U+001F. */
const FLOAT_WS_CLASS = WS_CLASS.replace("\x1c\x1d\x1e\x1f", "");
const FLOAT_PADDING = new RegExp(`^${FLOAT_WS_CLASS}+|${FLOAT_WS_CLASS}+$`, "gu");
const FLOAT_TEXT = /^[+-]?(?:(?:\d(?:_?\d)*(?:\.(?:\d(?:_?\d)*)?)?|\.\d(?:_?\d)*)(?:[eE][+-]?\d(?:_?\d)*)?)$/;
const SPECIAL_FLOAT = /^([+-]?)(inf|infinity|nan)$/i;
const UNICODE_DIGIT = /\p{Nd}/gu;
const IS_DIGIT = /^\p{Nd}$/u;

/** A Unicode decimal digit as its ASCII digit (Python converts them before parsing numbers). */
function asciiDigit(char: string): string {
  const code = char.codePointAt(0) ?? 0;
  let zero = code;
  while (zero > 0 && IS_DIGIT.test(String.fromCodePoint(zero - 1))) zero--;
  return String((code - zero) % 10);
}

/** Replaces every Unicode decimal digit by its ASCII digit, as Python does before parsing a number. */
export function toAsciiDigits(text: string): string {
  return text.replace(UNICODE_DIGIT, (d) => (d >= "0" && d <= "9" ? d : asciiDigit(d)));
}

/**
 * Python `float(text)`: surrounding whitespace (not U+001C–U+001F, which `str.strip()` removes), a sign, decimals, exponents, `_` between digits, `inf`/`nan`;
 * null on anything else (`""`, `"1,000"`, `"0x10"`).
 * @example
 * parsePyFloat(" 1_000 "); // 1000
 * parsePyFloat("0x10"); // null
 */
export function parsePyFloat(text: string): number | null {
  const trimmed = toAsciiDigits(text.replace(FLOAT_PADDING, ""));
  const special = SPECIAL_FLOAT.exec(trimmed);
  if (special) {
    const sign = special[1] === "-" ? -1 : 1;
    return special[2]?.toLowerCase() === "nan" ? Number.NaN : sign * Number.POSITIVE_INFINITY;
  }
  return FLOAT_TEXT.test(trimmed) ? Number(trimmed.replaceAll("_", "")) : null;
}

/**
 * Python `float(x)`: numbers as they are, booleans as 1.0/0.0, strings by {@link parsePyFloat}.
 * @throws VerificationError (ValueError) for a string Python refuses, (TypeError) for None, lists, dicts.
 * @example
 * pyFloat("1e3"); // 1000
 * pyFloat(true); // 1
 */
export function pyFloat(value: unknown): number {
  const n = numericValue(value);
  if (n !== undefined) return n;
  if (typeof value === "string") {
    const parsed = parsePyFloat(value);
    if (parsed === null) {
      throw new VerificationError("ValueError", `could not convert string to float: ${stringRepr(value)}`);
    }
    return parsed;
  }
  throw new VerificationError(
    "TypeError",
    `float() argument must be a string or a real number, not '${pyTypeName(value)}'`,
  );
}

/** Python `len(x)` of a str (code points), list or dict. */
export function pyLen(value: unknown): number {
  if (typeof value === "string") return Array.from(value).length;
  if (Array.isArray(value)) return value.length;
  if (value !== null && typeof value === "object" && !(value instanceof PyFloat))
    return Object.keys(value).length;
  throw new VerificationError("TypeError", `object of type '${pyTypeName(value)}' has no len()`);
}

/** The items Python's `for x in value` yields: characters of a str, items of a list, keys of a dict. */
export function pyIterate(value: unknown): unknown[] {
  if (typeof value === "string") return Array.from(value);
  if (Array.isArray(value)) return value;
  if (value !== null && typeof value === "object" && !(value instanceof PyFloat)) return Object.keys(value);
  throw new VerificationError("TypeError", `'${pyTypeName(value)}' object is not iterable`);
}

/**
 * The key of a value in a Python set (`1`, `1.0` and `True` are one element).
 * @throws VerificationError (TypeError) for lists and dicts, which are unhashable.
 */
export function pyHashKey(value: unknown): string {
  if (value === null || value === undefined) return "None";
  if (typeof value === "string") return `s${value}`;
  const n = numericValue(value);
  if (n !== undefined) return `n${n === 0 ? 0 : n}`;
  throw new VerificationError("TypeError", `unhashable type: '${pyTypeName(value)}'`);
}

/** Replaces every {@link PyFloat} in a value by its plain number: the JSON view of the value. */
export function plainJson(value: unknown): unknown {
  if (value instanceof PyFloat) return value.value;
  if (Array.isArray(value)) return value.map(plainJson);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, plainJson(child)]));
  }
  return value;
}
