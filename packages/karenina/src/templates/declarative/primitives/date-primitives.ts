import { z } from "zod";
import { parseDateutil } from "../dates/dateutil-parse.js";
import { comparable, DateParseError, epochMicros, type PyDateTime } from "../dates/py-datetime.js";
import { strptime } from "../dates/strptime.js";
import { VerificationError } from "../errors.js";
import { definePrimitive, param } from "./primitive.js";

type Parsed = PyDateTime | null | VerificationError;

const CACHE_LIMIT = 2048;
const cache = new Map<string, Parsed>();

function parseUncached(text: string, format: string | null, now: Date): Parsed {
  try {
    return format === null ? parseDateutil(text, now) : strptime(text, format);
  } catch (error) {
    if (error instanceof DateParseError) return null;
    if (error instanceof VerificationError) return error;
    throw error;
  }
}

/**
 * Parses a value as the date primitives do: dateutil without a format, strptime with one. A non-string is a
 * TypeError in Python; both it and an unparsable string give null (the check fails). An OverflowError
 * (VerificationError) escapes, as in the original. Results are cached per text, format and day (dateutil
 * fills missing components from today's date).
 */
function parseDateValue(value: unknown, format: string | null = null): PyDateTime | null {
  if (typeof value !== "string") return null;
  const now = new Date();
  const key = `${now.getFullYear()}-${now.getMonth()}-${now.getDate()}\u0000${format ?? ""}\u0000${value}`;
  let parsed = cache.get(key);
  if (parsed === undefined) {
    if (cache.size >= CACHE_LIMIT) cache.clear();
    parsed = parseUncached(value, format, now);
    cache.set(key, parsed);
  }
  if (parsed instanceof VerificationError) throw parsed;
  return parsed;
}

/** Spec 02 §6.6: both values parse to the same calendar date. */
export const DateMatch = definePrimitive({
  name: "DateMatch",
  description: "Both values are the same calendar date (dateutil parsing, or strptime with format).",
  params: z.object({ format: param.str().nullable().default(null) }),
  appliesTo: ["date", "str"],
  isTrace: false,
  create: ({ format }) => ({
    check: (extracted, expected) => {
      const e = parseDateValue(extracted, format);
      const x = parseDateValue(expected, format);
      return e !== null && x !== null && e.year === x.year && e.month === x.month && e.day === x.day;
    },
  }),
});

const UNIT_MICROS = { days: 86_400e6, hours: 3_600e6, minutes: 60e6 } as const;

/** Spec 02 §6.6: `|e − x| ≤ tolerance · unit` on full datetimes; naive vs aware fails. */
export const DateTolerance = definePrimitive({
  name: "DateTolerance",
  description: "The dates are within a tolerance in days, hours or minutes.",
  params: z.object({
    tolerance: param.int(),
    unit: z
      .enum(["days", "hours", "minutes"], { error: "Input should be 'days', 'hours' or 'minutes'" })
      .default("days"),
  }),
  appliesTo: ["date", "str"],
  isTrace: false,
  create: ({ tolerance, unit }) => ({
    check: (extracted, expected) => {
      const e = parseDateValue(extracted);
      const x = parseDateValue(expected);
      if (e === null || x === null || !comparable(e, x)) return false;
      return Math.abs(epochMicros(e) - epochMicros(x)) <= tolerance * UNIT_MICROS[unit];
    },
  }),
});

/** Spec 02 §6.6: `min ≤ e ≤ max` on full datetimes (a date-only bound is midnight); ground truth ignored. */
export const DateRange = definePrimitive({
  name: "DateRange",
  description: "The date lies within the optional bounds (ground truth ignored).",
  params: z.object({ min: param.str().nullable().default(null), max: param.str().nullable().default(null) }),
  appliesTo: ["date", "str"],
  isTrace: false,
  create: ({ min, max }) => ({
    check: (extracted) => {
      const e = parseDateValue(extracted);
      if (e === null) return false;
      const within = (bound: string | null, side: 1 | -1) => {
        if (bound === null) return true;
        const b = parseDateValue(bound);
        return b !== null && comparable(e, b) && side * (epochMicros(e) - epochMicros(b)) >= 0;
      };
      return within(min, 1) && within(max, -1);
    },
  }),
});
