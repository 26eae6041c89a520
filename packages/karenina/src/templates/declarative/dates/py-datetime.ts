import { KareninaError } from "../../../errors/index.js";
import { VerificationError } from "../errors.js";

/** A Python `datetime`: naive when `offset` is null, else aware with a UTC offset in seconds. */
export interface PyDateTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  microsecond: number;
  offset: number | null;
}

/** A date or time string Python refuses (dateutil's ParserError, strptime's ValueError): the check fails. */
export class DateParseError extends KareninaError {
  override readonly name = "DateParseError";
}

/** Whether `year` is a leap year in the proleptic Gregorian calendar. */
function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** Python `calendar.monthrange(year, month)[1]`: the number of days in the month. */
export function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Days since 1970-01-01 of a proleptic Gregorian date (any year, no JS Date quirks). */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** Python `date.weekday()`: Monday 0 … Sunday 6. */
export function weekdayOf(year: number, month: number, day: number): number {
  return (((daysFromCivil(year, month, day) + 3) % 7) + 7) % 7;
}

/** The civil date `days` after 1970-01-01. */
function civilFromDays(days: number): { year: number; month: number; day: number } {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp + (mp < 10 ? 3 : -9);
  return { year: yoe + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

/** The same datetime `days` later (Python `dt + timedelta(days=…)`). */
export function addDays(dt: PyDateTime, days: number): PyDateTime {
  return { ...dt, ...civilFromDays(daysFromCivil(dt.year, dt.month, dt.day) + days) };
}

const C_INT_MAX = 2 ** 31 - 1;
const C_LONG_MAX = 2 ** 63 - 1;

/** Python's conversion of a `datetime(...)` argument to a C int: OverflowError past its range. */
function checkFitsCInt(value: number): void {
  if (value > C_LONG_MAX)
    throw new VerificationError("OverflowError", "Python int too large to convert to C long");
  if (value > C_INT_MAX)
    throw new VerificationError("OverflowError", "signed integer is greater than maximum");
}

/**
 * Python `datetime(year, month, …)` construction checks: a component too large for a C int is an
 * OverflowError (VerificationError), one out of range a ValueError (DateParseError), as in CPython.
 */
export function checkedDateTime(dt: PyDateTime): PyDateTime {
  const { year, month, day, hour, minute, second, microsecond } = dt;
  for (const value of [year, month, day, hour, minute, second, microsecond]) checkFitsCInt(value);
  const problem =
    year < 1 || year > 9999
      ? `year ${year} is out of range`
      : month < 1 || month > 12
        ? "month must be in 1..12"
        : day < 1 || day > daysInMonth(year, month)
          ? "day is out of range for month"
          : hour < 0 || hour > 23
            ? "hour must be in 0..23"
            : minute < 0 || minute > 59
              ? "minute must be in 0..59"
              : second < 0 || second > 59
                ? "second must be in 0..59"
                : microsecond < 0 || microsecond > 999999
                  ? "microsecond must be in 0..999999"
                  : null;
  if (problem !== null) throw new DateParseError(problem);
  return dt;
}

/** Microseconds since the epoch, reading a naive datetime as UTC and an aware one at its offset. */
export function epochMicros(dt: PyDateTime): number {
  const days = daysFromCivil(dt.year, dt.month, dt.day);
  const seconds = days * 86400 + dt.hour * 3600 + dt.minute * 60 + dt.second - (dt.offset ?? 0);
  return seconds * 1e6 + dt.microsecond;
}

/** Whether two datetimes can be ordered or subtracted (Python raises TypeError for naive vs aware). */
export function comparable(a: PyDateTime, b: PyDateTime): boolean {
  return (a.offset === null) === (b.offset === null);
}

/** The local date and time now, with time set to midnight: dateutil's default for missing components. */
export function todayAtMidnight(now: Date = new Date()): PyDateTime {
  return {
    year: now.getFullYear(),
    month: now.getMonth() + 1,
    day: now.getDate(),
    hour: 0,
    minute: 0,
    second: 0,
    microsecond: 0,
    offset: null,
  };
}
