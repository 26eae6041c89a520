/**
 * Python's `repr()` of JSON-shaped values (null, boolean, number, string, array, plain object, plus
 * {@link PyFloat}): what the raw trace writes for tool arguments and what declarative templates write for
 * values, both as CPython prints them. A JS number is a Python int when it is an integer, else a float.
 */
import { PyFloat } from "./py-float.js";

/**
 * Python `repr()` of a float: shortest round-trip digits, fixed notation for exponents −4 … 15, scientific
 * otherwise, `.0` on integral values.
 * @example
 * floatRepr(2); // "2.0"
 * floatRepr(0.00001); // "1e-05"
 * floatRepr(1e16); // "1e+16"
 */
export function floatRepr(value: number): string {
  if (Number.isNaN(value)) return "nan";
  if (!Number.isFinite(value)) return value > 0 ? "inf" : "-inf";
  if (value === 0) return Object.is(value, -0) ? "-0.0" : "0.0";
  const [mantissa = "", exponentText = "0"] = value.toExponential().split("e");
  const negative = mantissa.startsWith("-");
  const digits = mantissa.replace("-", "").replace(".", "");
  const exponent = Number(exponentText);
  const decimalPoint = exponent + 1;
  let body: string;
  if (decimalPoint > -4 && decimalPoint <= 16) {
    if (decimalPoint <= 0) body = `0.${"0".repeat(-decimalPoint)}${digits}`;
    else if (decimalPoint >= digits.length) body = `${digits}${"0".repeat(decimalPoint - digits.length)}.0`;
    else body = `${digits.slice(0, decimalPoint)}.${digits.slice(decimalPoint)}`;
  } else {
    const fraction = digits.length > 1 ? `.${digits.slice(1)}` : "";
    const sign = exponent < 0 ? "-" : "+";
    body = `${digits[0]}${fraction}e${sign}${String(Math.abs(exponent)).padStart(2, "0")}`;
  }
  return negative ? `-${body}` : body;
}

/** Characters `str.isprintable()` rejects (the space excepted), which `repr` escapes. */
const NOT_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;

function escapeChar(char: string, quote: string): string {
  if (char === "\\" || char === quote) return `\\${char}`;
  if (char === "\n") return "\\n";
  if (char === "\r") return "\\r";
  if (char === "\t") return "\\t";
  if (char === " " || !NOT_PRINTABLE.test(char)) return char;
  const code = char.codePointAt(0) ?? 0;
  const hex = code.toString(16);
  if (code < 0x100) return `\\x${hex.padStart(2, "0")}`;
  if (code < 0x10000) return `\\u${hex.padStart(4, "0")}`;
  return `\\U${hex.padStart(8, "0")}`;
}

/**
 * Python `repr()` of a str: single quotes unless the text has `'` and no `"`, with Python's escapes.
 * @example
 * stringRepr("it's"); // `"it's"`
 * stringRepr("a\\b"); // String.raw`'a\\b'`
 */
export function stringRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const char of text) out += escapeChar(char, quote);
  return out + quote;
}

/** A JS integer as Python prints the int (no exponent, even past 1e21). */
function integerText(value: number): string {
  return Math.abs(value) < 1e21 ? String(value) : BigInt(value).toString();
}

/**
 * Python `repr()` of a JSON-shaped value: `None`, `True`, `5`, `5.0`, `'a'`, `['a', 1]`, `{'k': 'v'}`. Dict
 * entries keep insertion order; an entry whose value is `undefined` is left out, as JSON leaves it out.
 * @example
 * pyRepr({ k: [true, null, 1.5] }); // "{'k': [True, None, 1.5]}"
 */
export function pyRepr(value: unknown): string {
  if (value === null || value === undefined) return "None";
  if (typeof value === "boolean") return value ? "True" : "False";
  if (typeof value === "string") return stringRepr(value);
  if (value instanceof PyFloat) return floatRepr(value.value);
  if (typeof value === "number") return Number.isInteger(value) ? integerText(value) : floatRepr(value);
  if (typeof value === "bigint") return value.toString();
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(", ")}]`;
  if (typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(
      ([, child]) => child !== undefined,
    );
    return `{${entries.map(([key, child]) => `${stringRepr(key)}: ${pyRepr(child)}`).join(", ")}}`;
  }
  return stringRepr(String(value));
}
