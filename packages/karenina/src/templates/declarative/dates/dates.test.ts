import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { VerificationError } from "../errors.js";
import { parseDateutil } from "./dateutil-parse.js";
import { DateParseError, type PyDateTime } from "./py-datetime.js";
import { strptime } from "./strptime.js";

const fixture = JSON.parse(
  readFileSync(new URL("../__fixtures__/python-semantics.json", import.meta.url), "utf8"),
);
/** The fixture's dateutil default: 2026-11-22, local time. */
const NOW = new Date(2026, 10, 22, 15, 30);

const asList = (d: PyDateTime) => [
  d.year,
  d.month,
  d.day,
  d.hour,
  d.minute,
  d.second,
  d.microsecond,
  d.offset,
];

function outcome(parse: () => PyDateTime): unknown {
  try {
    return asList(parse());
  } catch (error) {
    if (error instanceof DateParseError) return null;
    if (error instanceof VerificationError && error.pythonType === "OverflowError") return "OverflowError";
    throw error;
  }
}

describe("dateutil.parser.parse, case by case against python-dateutil", () => {
  test.each(fixture.dates as [string, unknown][])("%j", (text, expected) => {
    expect(outcome(() => parseDateutil(text, NOW))).toEqual(expected);
  });

  test("ambiguous numeric dates are month-first", () => {
    expect(asList(parseDateutil("05/03/2020", NOW)).slice(0, 3)).toEqual([2020, 5, 3]);
    expect(asList(parseDateutil("13/05/2020", NOW)).slice(0, 3)).toEqual([2020, 5, 13]);
  });

  test("missing components come from today", () => {
    expect(asList(parseDateutil("2020", NOW)).slice(0, 3)).toEqual([2020, 11, 22]);
    expect(asList(parseDateutil("Feb 2021", NOW)).slice(0, 3)).toEqual([2021, 2, 22]);
  });

  test("a trailing Z or offset makes the datetime aware", () => {
    expect(parseDateutil("2020-03-05T10:00:00Z", NOW).offset).toBe(0);
    expect(parseDateutil("2020-03-05T10:00:00+02:00", NOW).offset).toBe(7200);
    expect(parseDateutil("2020-03-05T10:00:00", NOW).offset).toBeNull();
  });

  test("a 20-digit number overflows as in Python", () => {
    expect(() => parseDateutil("12345678901234567890", NOW)).toThrow(
      "Python int too large to convert to C long",
    );
  });
});

describe("datetime.strptime", () => {
  test.each(fixture.strptime as [string, string, unknown][])("%j with %j", (text, format, expected) => {
    expect(outcome(() => strptime(text, format))).toEqual(expected);
  });
});
