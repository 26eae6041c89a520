import { describe, expect, test } from "vitest";
import { floatRepr, PyFloat, pyRepr, stringRepr } from "./index.js";

// Expected values are what CPython 3.12 prints for the same values.
describe("Python repr of JSON values", () => {
  test("strings use single quotes unless they hold ' and no \"", () => {
    expect(stringRepr("abc")).toBe("'abc'");
    expect(stringRepr("it's")).toBe(`"it's"`);
    expect(stringRepr(`say "hi"`)).toBe(`'say "hi"'`);
    expect(stringRepr(`it's "x"`)).toBe(`'it\\'s "x"'`);
  });

  test("strings escape backslashes, newlines, tabs and non-printable characters as Python does", () => {
    expect(stringRepr("a\\b\nc\td\re")).toBe("'a\\\\b\\nc\\td\\re'");
    expect(stringRepr("\x00\x7f\u200b")).toBe("'\\x00\\x7f\\u200b'");
    expect(stringRepr("\u00a0")).toBe("'\\xa0'");
    expect(stringRepr("Zoë 日本 😀")).toBe("'Zoë 日本 😀'");
  });

  test("floats print as Python prints them; integral numbers as ints", () => {
    expect(floatRepr(0.1)).toBe("0.1");
    expect(floatRepr(1e-5)).toBe("1e-05");
    expect(floatRepr(1e16)).toBe("1e+16");
    expect(floatRepr(123456789012345.6)).toBe("123456789012345.6");
    expect(floatRepr(-2.5e-7)).toBe("-2.5e-07");
    expect(pyRepr(3)).toBe("3");
    expect(pyRepr(1e22)).toBe("10000000000000000000000");
    expect(pyRepr(0.5)).toBe("0.5");
  });

  test("None, booleans, lists and dicts in insertion order", () => {
    expect(pyRepr({ query: "x", limit: 5, deep: false, filters: null, tags: ["a", 1.5, true] })).toBe(
      "{'query': 'x', 'limit': 5, 'deep': False, 'filters': None, 'tags': ['a', 1.5, True]}",
    );
    expect(pyRepr({ nested: { "it's": [] } })).toBe(`{'nested': {"it's": []}}`);
  });

  test("an integral PyFloat prints as a float; an undefined dict entry is left out, an undefined item is None", () => {
    expect(pyRepr([new PyFloat(5), 5])).toBe("[5.0, 5]");
    expect(pyRepr({ a: undefined, b: [undefined] })).toBe("{'b': [None]}");
  });
});
