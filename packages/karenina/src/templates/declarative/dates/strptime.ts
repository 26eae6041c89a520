/**
 * Python `datetime.strptime(text, format)` in the C locale (spec 02 §6.6, `DateMatch(format=…)`): the format
 * becomes a case-insensitive regex as in CPython's `_strptime`, which must match the whole text; fields not
 * in the format default to 1900-01-01 00:00. Supported directives: `%Y %y %m %d %j %H %I %M %S %f %p %b %B
 * %h %a %A %z %Z %%` (`%Z` accepts UTC/GMT and, as in Python, leaves the result naive); another directive
 * is a ValueError, as Python's unknown ones are.
 */
import { runRegex, type TranslatedRegex } from "../../../python-regex/index.js";
import { PYTHON_WHITESPACE } from "../python-values.js";
import { addDays, checkedDateTime, DateParseError, type PyDateTime } from "./py-datetime.js";

const MONTH_NAMES = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
];
const DAY_NAMES = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];

const DIRECTIVES: Record<string, string> = {
  d: "(3[01]|[12]\\d|0[1-9]|[1-9]| [1-9])",
  f: "(\\d{1,6})",
  H: "(2[0-3]|[0-1]\\d|\\d)",
  I: "(1[0-2]|0[1-9]|[1-9])",
  j: "(36[0-6]|3[0-5]\\d|[12]\\d\\d|0[1-9]\\d|00[1-9]|[1-9]\\d|0[1-9]|[1-9])",
  m: "(1[0-2]|0[1-9]|[1-9])",
  M: "([0-5]\\d|\\d)",
  S: "(6[0-1]|[0-5]\\d|\\d)",
  y: "(\\d\\d)",
  Y: "(\\d\\d\\d\\d)",
  z: "([+-]\\d\\d:?[0-5]\\d(?::?[0-5]\\d(?:\\.\\d{1,6})?)?|Z)",
  Z: "(utc|gmt)",
  p: "(am|pm)",
  b: `(${MONTH_NAMES.map((m) => m.slice(0, 3)).join("|")})`,
  B: `(${MONTH_NAMES.join("|")})`,
  h: `(${MONTH_NAMES.map((m) => m.slice(0, 3)).join("|")})`,
  a: `(${DAY_NAMES.map((d) => d.slice(0, 3)).join("|")})`,
  A: `(${DAY_NAMES.join("|")})`,
};

const WHITESPACE_CLASS = `[${PYTHON_WHITESPACE}]`;

interface CompiledFormat {
  regex: TranslatedRegex;
  directives: string[];
}

const compiled = new Map<string, CompiledFormat>();

/** CPython's `_strptime` pattern for a format: directives as groups, whitespace as `\s+`, the rest literal. */
function compileFormat(format: string): CompiledFormat {
  const cached = compiled.get(format);
  if (cached) return cached;
  let source = "";
  const directives: string[] = [];
  const chars = Array.from(format);
  for (let i = 0; i < chars.length; i++) {
    const char = chars[i] as string;
    if (char === "%") {
      const directive = chars[++i];
      if (directive === "%") source += "%";
      else if (directive !== undefined && Object.hasOwn(DIRECTIVES, directive)) {
        source += DIRECTIVES[directive];
        directives.push(directive);
      } else if (directive === undefined) {
        throw new DateParseError(`stray % in format '${format}'`);
      } else {
        throw new DateParseError(`'${directive}' is a bad directive in format '%${directive}'`);
      }
    } else if (PYTHON_WHITESPACE.includes(char)) {
      while (chars[i + 1] !== undefined && PYTHON_WHITESPACE.includes(chars[i + 1] as string)) i++;
      source += `${WHITESPACE_CLASS}+`;
    } else {
      source += char.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&");
    }
  }
  const regex = { source: `^(?:${source})`, flags: "iu" };
  const entry = { regex, directives };
  compiled.set(format, entry);
  return entry;
}

function offsetSeconds(text: string): number {
  if (text.toUpperCase() === "Z") return 0;
  const sign = text[0] === "-" ? -1 : 1;
  const digits = text.slice(1).replaceAll(":", "");
  const [hh, mm, ss] = [digits.slice(0, 2), digits.slice(2, 4), digits.slice(4, 6) || "0"].map(Number);
  return sign * ((hh ?? 0) * 3600 + (mm ?? 0) * 60 + (ss ?? 0));
}

/**
 * `datetime.strptime(text, format)`.
 * @throws DateParseError when the text does not match the format (or leaves unconverted data), the format has
 *   a bad directive, or the date does not exist.
 * @throws RegexTimeoutError when the format's regex backtracks past the regex deadline on this text.
 */
export function strptime(text: string, format: string): PyDateTime {
  const { regex, directives } = compileFormat(format);
  // Off the host's thread: a format of many adjacent directives (`%d%d%d…`) backtracks exponentially.
  const match = runRegex("exec", regex, text, {
    subject: `the regex of strptime format ${JSON.stringify(format)}`,
  });
  if (!match) throw new DateParseError(`time data '${text}' does not match format '${format}'`);
  const matched = match[0] ?? "";
  if (matched.length !== text.length) {
    throw new DateParseError(`unconverted data remains: ${text.slice(matched.length)}`);
  }
  const dt: PyDateTime = {
    year: 1900,
    month: 1,
    day: 1,
    hour: 0,
    minute: 0,
    second: 0,
    microsecond: 0,
    offset: null,
  };
  let hour12: number | null = null;
  let pm: boolean | null = null;
  let dayOfYear: number | null = null;
  directives.forEach((directive, index) => {
    const value = match[index + 1] as string;
    const lower = value.toLowerCase();
    switch (directive) {
      case "Y":
        dt.year = Number(value);
        break;
      case "y":
        dt.year = Number(value) + (Number(value) < 69 ? 2000 : 1900);
        break;
      case "m":
        dt.month = Number(value);
        break;
      case "b":
      case "h":
        dt.month = MONTH_NAMES.findIndex((m) => m.startsWith(lower)) + 1;
        break;
      case "B":
        dt.month = MONTH_NAMES.indexOf(lower) + 1;
        break;
      case "d":
        dt.day = Number(value);
        break;
      case "j":
        dayOfYear = Number(value);
        break;
      case "H":
        dt.hour = Number(value);
        break;
      case "I":
        hour12 = Number(value);
        break;
      case "p":
        pm = lower === "pm";
        break;
      case "M":
        dt.minute = Number(value);
        break;
      case "S":
        dt.second = Number(value);
        break;
      case "f":
        dt.microsecond = Number(value.padEnd(6, "0"));
        break;
      case "z":
        dt.offset = offsetSeconds(value);
        break;
    }
  });
  if (hour12 !== null) dt.hour = pm ? (hour12 % 12) + 12 : hour12 % 12;
  if (dayOfYear !== null) return addDays(checkedDateTime({ ...dt, month: 1, day: 1 }), dayOfYear - 1);
  return checkedDateTime(dt);
}
