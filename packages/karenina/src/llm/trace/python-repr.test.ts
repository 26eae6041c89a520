import { describe, expect, test } from "vitest";
import { pythonFloatRepr, pythonRepr, pythonStringRepr } from "./python-repr.js";

// Expected values are what CPython 3.12 prints for the same values.
describe("Python repr of JSON values", () => {
  test("strings use single quotes unless they hold ' and no \"", () => {
    expect(pythonStringRepr("abc")).toBe("'abc'");
    expect(pythonStringRepr("it's")).toBe(`"it's"`);
    expect(pythonStringRepr(`say "hi"`)).toBe(`'say "hi"'`);
    expect(pythonStringRepr(`it's "x"`)).toBe(`'it\\'s "x"'`);
  });

  test("strings escape backslashes, newlines, tabs and non-printable characters as Python does", () => {
    expect(pythonStringRepr("a\\b\nc\td\re")).toBe("'a\\\\b\\nc\\td\\re'");
    expect(pythonStringRepr("\x00\x7f\u200b")).toBe("'\\x00\\x7f\\u200b'");
    expect(pythonStringRepr("\u00a0")).toBe("'\\xa0'");
    expect(pythonStringRepr("Zoë 日本 😀")).toBe("'Zoë 日本 😀'");
  });

  test("floats print as Python prints them; integral numbers as ints", () => {
    expect(pythonFloatRepr(0.1)).toBe("0.1");
    expect(pythonFloatRepr(1e-5)).toBe("1e-05");
    expect(pythonFloatRepr(1e16)).toBe("1e+16");
    expect(pythonFloatRepr(123456789012345.6)).toBe("123456789012345.6");
    expect(pythonFloatRepr(-2.5e-7)).toBe("-2.5e-07");
    expect(pythonRepr(3)).toBe("3");
    expect(pythonRepr(1e22)).toBe("10000000000000000000000");
    expect(pythonRepr(0.5)).toBe("0.5");
  });

  test("None, booleans, lists and dicts in insertion order", () => {
    expect(pythonRepr({ query: "x", limit: 5, deep: false, filters: null, tags: ["a", 1.5, true] })).toBe(
      "{'query': 'x', 'limit': 5, 'deep': False, 'filters': None, 'tags': ['a', 1.5, True]}",
    );
    expect(pythonRepr({ nested: { "it's": [] } })).toBe(`{'nested': {"it's": []}}`);
  });
});
