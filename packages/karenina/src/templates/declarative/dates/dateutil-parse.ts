/**
 * A port of `dateutil.parser.parse(text)` with its default settings (spec 02 §6.6): the same tokenizer, token
 * loop and year/month/day resolution, so ambiguous numeric dates are month-first and missing components come
 * from today's date. Not ported: `fuzzy`, `tzinfos`, and local time-zone names (dateutil makes a name found in
 * `time.tzname` aware in local time; here only UTC/GMT/Z and numeric offsets make a datetime aware, other
 * names leave it naive, as dateutil does for names it does not know).
 */
import { PYTHON_WHITESPACE, toAsciiDigits } from "../python-values.js";
import {
  addDays,
  checkedDateTime,
  DateParseError,
  daysInMonth,
  type PyDateTime,
  todayAtMidnight,
  weekdayOf,
} from "./py-datetime.js";

const JUMP = new Set([
  " ",
  ".",
  ",",
  ";",
  "-",
  "/",
  "'",
  "at",
  "on",
  "and",
  "ad",
  "m",
  "t",
  "of",
  "st",
  "nd",
  "rd",
  "th",
]);
const WEEKDAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"];
const WEEKDAY_NAMES = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];
const MONTHS: Record<string, number> = {};
[
  ["jan", "january"],
  ["feb", "february"],
  ["mar", "march"],
  ["apr", "april"],
  ["may"],
  ["jun", "june"],
  ["jul", "july"],
  ["aug", "august"],
  ["sep", "sept", "september"],
  ["oct", "october"],
  ["nov", "november"],
  ["dec", "december"],
].forEach((names, index) => {
  for (const name of names) MONTHS[name] = index + 1;
});
const HMS: Record<string, number> = {
  h: 0,
  hour: 0,
  hours: 0,
  m: 1,
  minute: 1,
  minutes: 1,
  s: 2,
  second: 2,
  seconds: 2,
};
const AMPM: Record<string, number> = { am: 0, a: 0, pm: 1, p: 1 };
const UTC_NAMES = ["UTC", "GMT", "Z", "z"];

const lookup = <T>(table: Record<string, T>, token: string | undefined): T | undefined => {
  const key = token?.toLowerCase();
  return key !== undefined && Object.hasOwn(table, key) ? table[key] : undefined;
};
const jump = (token: string | undefined) => token !== undefined && JUMP.has(token.toLowerCase());
const weekday = (token: string) => {
  const key = token.toLowerCase();
  const index = WEEKDAYS.indexOf(key);
  return index >= 0 ? index : WEEKDAY_NAMES.indexOf(key) >= 0 ? WEEKDAY_NAMES.indexOf(key) : undefined;
};
const month = (token: string | undefined) => lookup(MONTHS, token);
const hms = (token: string | undefined) => lookup(HMS, token);
const ampm = (token: string | undefined) => lookup(AMPM, token);
const utcZone = (token: string) => ["utc", "gmt", "z"].includes(token.toLowerCase());

const IS_WORD = /^\p{L}$/u;
const IS_NUM = /^[0-9]$/;
const isWord = (c: string) => IS_WORD.test(c);
const isNum = (c: string) => IS_NUM.test(c);
const isSpace = (c: string) => c.length === 1 && PYTHON_WHITESPACE.includes(c);

const fail = (reason = "Unknown string format"): never => {
  throw new DateParseError(reason);
};

/** dateutil's `_timelex.split`: words, numbers (with `.`/`,` decimals), one `' '` per whitespace, other chars. */
function timelex(text: string): string[] {
  const chars = Array.from(text).filter((c) => c !== "\0");
  const tokens: string[] = [];
  const pending: string[] = [];
  let i = 0;
  const next = (): string | null => {
    if (pending.length > 0) return pending.shift() ?? null;
    let token: string | null = null;
    let state: "a" | "0" | "a." | "0." | null = null;
    let seenLetters = false;
    while (i < chars.length) {
      const c = chars[i++] as string;
      if (state === null) {
        token = c;
        if (isWord(c)) state = "a";
        else if (isNum(c)) state = "0";
        else {
          if (isSpace(c)) token = " ";
          break;
        }
      } else if (state === "a") {
        seenLetters = true;
        if (isWord(c)) token += c;
        else if (c === ".") {
          token += c;
          state = "a.";
        } else {
          i--;
          break;
        }
      } else if (state === "0") {
        if (isNum(c)) token += c;
        else if (c === "." || (c === "," && (token as string).length >= 2)) {
          token += c;
          state = "0.";
        } else {
          i--;
          break;
        }
      } else if (state === "a.") {
        seenLetters = true;
        if (c === "." || isWord(c)) token += c;
        else if (isNum(c) && token?.endsWith(".")) {
          token += c;
          state = "0.";
        } else {
          i--;
          break;
        }
      } else {
        if (c === "." || isNum(c)) token += c;
        else if (isWord(c) && token?.endsWith(".")) {
          token += c;
          state = "a.";
        } else {
          i--;
          break;
        }
      }
    }
    if (token === null) return null;
    if (
      (state === "a." || state === "0.") &&
      (seenLetters || token.split(".").length > 2 || token.endsWith(".") || token.endsWith(","))
    ) {
      const [first = "", ...rest] = token.split(/([.,])/);
      token = first;
      for (const part of rest) if (part) pending.push(part);
    }
    if (state === "0." && !token.includes(".")) token = token.replaceAll(",", ".");
    return token;
  };
  for (let token = next(); token !== null; token = next()) tokens.push(token);
  return tokens;
}

const INT_TEXT = /^[+-]?\d+(?:_\d+)*$/;

/** Python `int(text)` on a token (ValueError → parse failure). */
function pyInt(text: string | undefined): number {
  const trimmed = text?.trim();
  if (trimmed === undefined || !INT_TEXT.test(trimmed)) return fail();
  return Number(trimmed.replaceAll("_", ""));
}

/** dateutil's `_to_decimal`: a finite number or a parse failure. */
function toDecimal(text: string | undefined): number {
  const value = text === undefined ? Number.NaN : Number(text);
  return Number.isFinite(value) && text?.trim() !== "" ? value : fail();
}

/** Python `float(token)` succeeds: the token is numeric for the loop. */
const isNumeric = (token: string) =>
  /^(?:\d+\.?\d*|\.\d+)$/.test(token) || /^(?:nan|inf|infinity)$/i.test(token);

/** dateutil's `_ymd`: the year/month/day candidates, with what is known about each. */
class Ymd {
  readonly values: number[] = [];
  centurySpecified = false;
  y: number | null = null;
  m: number | null = null;
  d: number | null = null;

  couldBeDay(value: number): boolean {
    if (this.d !== null) return false;
    if (this.m === null) return value >= 1 && value <= 31;
    const monthValue = this.values[this.m] as number;
    const year = this.y === null ? 2000 : (this.values[this.y] as number);
    return value >= 1 && value <= daysInMonth(year, monthValue);
  }

  append(value: string | number, label: "Y" | "M" | "D" | null = null): void {
    let n: number;
    if (typeof value === "string") {
      if (/^\d+$/.test(value) && value.length > 2) {
        this.centurySpecified = true;
        label = "Y";
      }
      n = pyInt(value);
    } else {
      if (value > 100) {
        this.centurySpecified = true;
        label = "Y";
      }
      n = Math.trunc(value);
    }
    this.values.push(n);
    const index = this.values.length - 1;
    if (label === "M") {
      if (this.m !== null) fail("Month is already set");
      this.m = index;
    } else if (label === "D") {
      if (this.d !== null) fail("Day is already set");
      this.d = index;
    } else if (label === "Y") {
      if (this.y !== null) fail("Year is already set");
      this.y = index;
    }
  }

  resolve(): [year: number | null, month: number | null, day: number | null] {
    const v = this.values;
    const strids: Record<string, number> = {};
    if (this.y !== null) strids.y = this.y;
    if (this.m !== null) strids.m = this.m;
    if (this.d !== null) strids.d = this.d;
    const known = Object.keys(strids).length;
    if ((v.length === known && known > 0) || (v.length === 3 && known === 2)) {
      if (v.length === 3 && known === 2) {
        const used = Object.values(strids);
        const key = ["y", "m", "d"].find((k) => !(k in strids)) as string;
        strids[key] = [0, 1, 2].find((i) => !used.includes(i)) as number;
      }
      const at = (key: string) => (key in strids ? (v[strids[key] as number] as number) : null);
      return [at("y"), at("m"), at("d")];
    }
    const [a = 0, b = 0, c = 0] = v;
    if (v.length > 3) return fail("More than three YMD values");
    if (v.length === 1 || (this.m !== null && v.length === 2)) {
      const monthValue = this.m !== null ? (v[this.m] as number) : null;
      const other = this.m !== null ? (v.at(this.m - 1) as number) : a;
      return other > 31 ? [other, monthValue, null] : [null, monthValue, other];
    }
    if (v.length === 2) {
      if (a > 31) return [a, b, null];
      if (b > 31) return [b, a, null];
      return [null, a, b];
    }
    if (v.length === 3) {
      if (this.m === 0) return b > 31 ? [b, a, c] : [c, a, b];
      if (this.m === 1) return a > 31 ? [a, b, c] : [c, b, a];
      if (this.m === 2) return b > 31 ? [b, c, a] : [a, c, b];
      if (a > 31 || this.y === 0) return [a, b, c];
      if (a > 12) return [c, b, a];
      return [c, a, b];
    }
    return [null, null, null];
  }
}

interface Result {
  year: number | null;
  month: number | null;
  day: number | null;
  weekday: number | null;
  hour: number | null;
  minute: number | null;
  second: number | null;
  microsecond: number | null;
  tzname: string | null;
  tzoffset: number | null;
  ampm: number | null;
}

function parseMs(text: string | undefined): [number, number] {
  if (text === undefined) return fail();
  if (!text.includes(".")) return [pyInt(text), 0];
  const parts = text.split(".");
  if (parts.length !== 2) return fail();
  return [pyInt(parts[0]), pyInt((parts[1] as string).padEnd(6, "0").slice(0, 6))];
}

function parseMinSec(value: number): [number, number | null] {
  const remainder = value % 1;
  return [Math.trunc(value), remainder ? Math.trunc(60 * remainder) : null];
}

function adjustAmpm(hour: number, flag: number): number {
  if (hour < 12 && flag === 1) return hour + 12;
  if (hour === 12 && flag === 0) return 0;
  return hour;
}

function findHmsIndex(idx: number, tokens: string[]): number | null {
  const n = tokens.length;
  if (idx + 1 < n && hms(tokens[idx + 1]) !== undefined) return idx + 1;
  if (idx + 2 < n && tokens[idx + 1] === " " && hms(tokens[idx + 2]) !== undefined) return idx + 2;
  if (idx > 0 && hms(tokens[idx - 1]) !== undefined) return idx - 1;
  if (idx > 1 && idx === n - 1 && tokens[idx - 1] === " " && hms(tokens[idx - 2]) !== undefined)
    return idx - 2;
  return null;
}

function assignHms(res: Result, valueRepr: string, unit: number): void {
  const value = toDecimal(valueRepr);
  if (unit === 0) {
    res.hour = Math.trunc(value);
    if (value % 1) res.minute = Math.trunc(60 * (value % 1));
  } else if (unit === 1) {
    [res.minute, res.second] = parseMinSec(value);
  } else if (unit === 2) {
    [res.second, res.microsecond] = parseMs(valueRepr);
  }
}

/** dateutil's `_parse_numeric_token`; returns the index of the last token it used. */
function parseNumericToken(tokens: string[], start: number, ymd: Ymd, res: Result): number {
  let idx = start;
  const valueRepr = tokens[idx] as string;
  let value = toDecimal(valueRepr);
  const len = valueRepr.length;
  const n = tokens.length;
  if (
    ymd.values.length === 3 &&
    (len === 2 || len === 4) &&
    res.hour === null &&
    (idx + 1 >= n || (tokens[idx + 1] !== ":" && hms(tokens[idx + 1]) === undefined))
  ) {
    res.hour = pyInt(valueRepr.slice(0, 2));
    if (len === 4) res.minute = pyInt(valueRepr.slice(2));
  } else if (len === 6 || (len > 6 && valueRepr.indexOf(".") === 6)) {
    if (ymd.values.length === 0 && !valueRepr.includes(".")) {
      ymd.append(valueRepr.slice(0, 2));
      ymd.append(valueRepr.slice(2, 4));
      ymd.append(valueRepr.slice(4));
    } else {
      res.hour = pyInt(valueRepr.slice(0, 2));
      res.minute = pyInt(valueRepr.slice(2, 4));
      [res.second, res.microsecond] = parseMs(valueRepr.slice(4));
    }
  } else if (len === 8 || len === 12 || len === 14) {
    ymd.append(valueRepr.slice(0, 4), "Y");
    ymd.append(valueRepr.slice(4, 6));
    ymd.append(valueRepr.slice(6, 8));
    if (len > 8) {
      res.hour = pyInt(valueRepr.slice(8, 10));
      res.minute = pyInt(valueRepr.slice(10, 12));
      if (len > 12) res.second = pyInt(valueRepr.slice(12));
    }
  } else if (findHmsIndex(idx, tokens) !== null) {
    const hmsIdx = findHmsIndex(idx, tokens) as number;
    let unit: number;
    if (hmsIdx > idx) {
      unit = hms(tokens[hmsIdx]) as number;
      idx = hmsIdx;
    } else {
      unit = (hms(tokens[hmsIdx]) as number) + 1;
    }
    assignHms(res, valueRepr, unit);
  } else if (idx + 2 < n && tokens[idx + 1] === ":") {
    res.hour = Math.trunc(value);
    value = toDecimal(tokens[idx + 2]);
    [res.minute, res.second] = parseMinSec(value);
    if (idx + 4 < n && tokens[idx + 3] === ":") {
      [res.second, res.microsecond] = parseMs(tokens[idx + 4]);
      idx += 2;
    }
    idx += 2;
  } else if (idx + 1 < n && ["-", "/", "."].includes(tokens[idx + 1] as string)) {
    const sep = tokens[idx + 1];
    ymd.append(valueRepr);
    if (idx + 2 < n && !jump(tokens[idx + 2])) {
      if (/^\d+$/.test(tokens[idx + 2] as string)) {
        ymd.append(tokens[idx + 2] as string);
      } else {
        const m = month(tokens[idx + 2]);
        if (m === undefined) fail();
        ymd.append(m as number, "M");
      }
      if (idx + 3 < n && tokens[idx + 3] === sep) {
        const m = month(tokens[idx + 4]);
        if (m !== undefined) ymd.append(m, "M");
        else if (tokens[idx + 4] === undefined) fail();
        else ymd.append(tokens[idx + 4] as string);
        idx += 2;
      }
      idx += 1;
    }
    idx += 1;
  } else if (idx + 1 >= n || jump(tokens[idx + 1])) {
    const flag = ampm(tokens[idx + 2]);
    if (idx + 2 < n && flag !== undefined) {
      res.hour = adjustAmpm(Math.trunc(value), flag);
      idx += 1;
    } else {
      ymd.append(value);
    }
    idx += 1;
  } else if (ampm(tokens[idx + 1]) !== undefined && value >= 0 && value < 24) {
    res.hour = adjustAmpm(Math.trunc(value), ampm(tokens[idx + 1]) as number);
    idx += 1;
  } else if (ymd.couldBeDay(value)) {
    ymd.append(value);
  } else {
    fail();
  }
  return idx;
}

const couldBeTzName = (res: Result, token: string) =>
  res.hour !== null &&
  res.tzname === null &&
  res.tzoffset === null &&
  token.length <= 5 &&
  (/^[A-Z]*$/.test(token) || UTC_NAMES.includes(token));

/** dateutil's `_parse`: the components found in the text, or a parse failure. */
function parseComponents(text: string, now: Date): Result & { centurySpecified: boolean } {
  const res: Result = {
    year: null,
    month: null,
    day: null,
    weekday: null,
    hour: null,
    minute: null,
    second: null,
    microsecond: null,
    tzname: null,
    tzoffset: null,
    ampm: null,
  };
  const l = timelex(text);
  const ymd = new Ymd();
  const n = l.length;
  for (let i = 0; i < n; i++) {
    const token = l[i] as string;
    if (isNumeric(token)) {
      i = parseNumericToken(l, i, ymd, res);
    } else if (weekday(token) !== undefined) {
      res.weekday = weekday(token) as number;
    } else if (month(token) !== undefined) {
      ymd.append(month(token) as number, "M");
      if (i + 1 < n) {
        if (l[i + 1] === "-" || l[i + 1] === "/") {
          const sep = l[i + 1];
          if (l[i + 2] === undefined) fail();
          ymd.append(l[i + 2] as string);
          if (i + 3 < n && l[i + 3] === sep) {
            if (l[i + 4] === undefined) fail();
            ymd.append(l[i + 4] as string);
            i += 2;
          }
          i += 2;
        } else if (i + 4 < n && l[i + 1] === " " && l[i + 3] === " " && l[i + 2]?.toLowerCase() === "of") {
          if (/^\d+$/.test(l[i + 4] as string))
            ymd.append(String(convertYear(pyInt(l[i + 4]), false, now)), "Y");
          i += 4;
        }
      }
    } else if (ampm(token) !== undefined) {
      if (res.hour === null) fail("No hour specified with AM or PM flag.");
      if ((res.hour as number) < 0 || (res.hour as number) > 12)
        fail("Invalid hour specified for 12-hour clock.");
      res.hour = adjustAmpm(res.hour as number, ampm(token) as number);
      res.ampm = ampm(token) as number;
    } else if (couldBeTzName(res, token)) {
      res.tzname = token;
      res.tzoffset = token === "z" ? 0 : null;
      if (i + 1 < n && (l[i + 1] === "+" || l[i + 1] === "-")) {
        l[i + 1] = l[i + 1] === "+" ? "-" : "+";
        res.tzoffset = null;
        if (utcZone(token)) res.tzname = null;
      }
    } else if (res.hour !== null && (token === "+" || token === "-")) {
      const signal = token === "+" ? 1 : -1;
      const offsetText = l[i + 1];
      if (offsetText === undefined) return fail();
      let hours: number;
      let minutes: number;
      if (offsetText.length === 4) {
        hours = pyInt(offsetText.slice(0, 2));
        minutes = pyInt(offsetText.slice(2));
      } else if (i + 2 < n && l[i + 2] === ":") {
        hours = pyInt(offsetText);
        minutes = pyInt(l[i + 3]);
        i += 2;
      } else if (offsetText.length <= 2) {
        hours = pyInt(offsetText.slice(0, 2));
        minutes = 0;
      } else {
        return fail();
      }
      res.tzoffset = signal * (hours * 3600 + minutes * 60);
      const name = l[i + 4];
      if (
        i + 5 < n &&
        jump(l[i + 2]) &&
        l[i + 3] === "(" &&
        l[i + 5] === ")" &&
        name !== undefined &&
        name.length >= 3 &&
        couldBeTzName(res, name)
      ) {
        res.tzname = name;
        i += 4;
      }
      i += 1;
    } else if (!jump(token)) {
      fail();
    }
  }
  const [year, monthValue, day] = ymd.resolve();
  return { ...res, year, month: monthValue, day, centurySpecified: ymd.centurySpecified };
}

/** dateutil's `convertyear`: a two-digit year lands within 50 years of this year. */
function convertYear(year: number, centurySpecified: boolean, now: Date): number {
  if (year >= 100 || centurySpecified) return year;
  const thisYear = now.getFullYear();
  let out = year + Math.floor(thisYear / 100) * 100;
  if (out >= thisYear + 50) out -= 100;
  else if (out < thisYear - 50) out += 100;
  return out;
}

/**
 * `dateutil.parser.parse(text)`: missing components come from `now` (today at midnight); a trailing `Z`,
 * `UTC`, `GMT` or numeric offset makes the result aware.
 * @throws DateParseError where dateutil raises ParserError/ValueError; VerificationError (OverflowError) for
 *   components too large for a C int, which dateutil lets escape.
 */
export function parseDateutil(text: string, now: Date = new Date()): PyDateTime {
  const res = parseComponents(toAsciiDigits(text), now);
  const found = [
    res.year,
    res.month,
    res.day,
    res.weekday,
    res.hour,
    res.minute,
    res.second,
    res.microsecond,
    res.tzname,
    res.tzoffset,
    res.ampm,
  ];
  if (found.every((value) => value === null)) fail("String does not contain a date");
  const year = res.year === null ? null : convertYear(res.year, res.centurySpecified, now);
  let tzoffset = res.tzoffset;
  if ((tzoffset === 0 && !res.tzname) || res.tzname === "Z" || res.tzname === "z") tzoffset = 0;
  else if (tzoffset !== 0 && res.tzname && utcZone(res.tzname)) tzoffset = 0;
  const base = todayAtMidnight(now);
  const monthValue = res.month ?? base.month;
  let day = res.day ?? base.day;
  if (res.day === null) {
    if (monthValue < 1 || monthValue > 12) fail("bad month number; must be 1-12");
    day = Math.min(day, daysInMonth(year ?? base.year, monthValue));
  }
  let naive = checkedDateTime({
    year: year ?? base.year,
    month: monthValue,
    day,
    hour: res.hour ?? 0,
    minute: res.minute ?? 0,
    second: res.second ?? 0,
    microsecond: res.microsecond ?? 0,
    offset: null,
  });
  if (res.weekday !== null && !res.day) {
    naive = addDays(naive, (res.weekday - weekdayOf(naive.year, naive.month, naive.day) + 7) % 7);
  }
  return { ...naive, offset: tzoffset };
}
