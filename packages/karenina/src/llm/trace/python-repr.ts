/**
 * Python's `repr()` of JSON values, for the `Args:` lines of the raw trace (spec 04 §11.1), which the original
 * writes with an f-string over the tool input dict. (`templates/` has a fuller `pyRepr` for template values;
 * `llm/` sits below it and keeps this small copy for JSON values only.)
 *
 * JSON does not tell `5.0` from `5`: an integral number prints as a Python int.
 */

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

/** `repr(str)`: single quotes unless the text holds `'` and no `"`; backslash escapes as Python writes them. */
export function pythonStringRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const char of text) out += escapeChar(char, quote);
  return out + quote;
}

/** `repr(float)`: shortest round-trip digits, fixed notation for exponents -4 … 15, else `1e+16` style. */
export function pythonFloatRepr(value: number): string {
  if (Number.isNaN(value)) return "nan";
  if (!Number.isFinite(value)) return value > 0 ? "inf" : "-inf";
  if (value === 0) return Object.is(value, -0) ? "-0.0" : "0.0";
  const [mantissa = "", exponentText = "0"] = value.toExponential().split("e");
  const negative = mantissa.startsWith("-");
  const digits = mantissa.replace("-", "").replace(".", "");
  const exponent = Number(exponentText);
  const point = exponent + 1;
  let body: string;
  if (point > -4 && point <= 16) {
    if (point <= 0) body = `0.${"0".repeat(-point)}${digits}`;
    else if (point >= digits.length) body = `${digits}${"0".repeat(point - digits.length)}.0`;
    else body = `${digits.slice(0, point)}.${digits.slice(point)}`;
  } else {
    const fraction = digits.length > 1 ? `.${digits.slice(1)}` : "";
    body = `${digits[0]}${fraction}e${exponent < 0 ? "-" : "+"}${String(Math.abs(exponent)).padStart(2, "0")}`;
  }
  return negative ? `-${body}` : body;
}

/** `repr()` of a JSON value: `None`, `True`, `3`, `0.5`, `'a'`, `['a', 1]`, `{'k': 'v'}`. */
export function pythonRepr(value: unknown): string {
  if (value === null || value === undefined) return "None";
  if (typeof value === "boolean") return value ? "True" : "False";
  if (typeof value === "string") return pythonStringRepr(value);
  if (typeof value === "number") {
    if (!Number.isInteger(value)) return pythonFloatRepr(value);
    return Math.abs(value) < 1e21 ? String(value) : BigInt(value).toString();
  }
  if (typeof value === "bigint") return value.toString();
  if (Array.isArray(value)) return `[${value.map(pythonRepr).join(", ")}]`;
  if (typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(
      ([, child]) => child !== undefined,
    );
    return `{${entries.map(([key, child]) => `${pythonStringRepr(key)}: ${pythonRepr(child)}`).join(", ")}}`;
  }
  return pythonStringRepr(String(value));
}
