import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { floatRepr, PyFloat, pyRepr, stringRepr } from "../../python-repr/index.js";
import { VerificationError } from "./errors.js";
import {
  PYTHON_PUNCTUATION,
  PYTHON_WHITESPACE,
  parsePyFloat,
  pyEquals,
  pyFloat,
  pyHashKey,
  pyIterate,
  pySplit,
  pyStr,
  pyStrip,
  pyTruthy,
  removePunctuation,
} from "./python-values.js";

const fixture = JSON.parse(
  readFileSync(new URL("./__fixtures__/python-semantics.json", import.meta.url), "utf8"),
);

describe("str() and repr() as CPython writes them", () => {
  test.each(fixture.float_repr as [number, string][])("repr(%s) is %s", (value, expected) => {
    expect(floatRepr(value)).toBe(expected);
  });

  test("-0.0 keeps its sign", () => expect(floatRepr(-0)).toBe("-0.0"));

  test.each(fixture.string_repr as [string, string][])("repr(%j) is %s", (text, expected) => {
    expect(stringRepr(text)).toBe(expected);
  });

  test("ints, integral floats, None, booleans and containers", () => {
    expect(pyStr(5)).toBe("5");
    expect(pyStr(new PyFloat(5))).toBe("5.0");
    expect(pyStr(5.5)).toBe("5.5");
    expect(pyStr(new PyFloat(1e16))).toBe("1e+16");
    expect(pyStr(null)).toBe("None");
    expect(pyStr(true)).toBe("True");
    expect(pyStr(["a", 1, null, new PyFloat(2)])).toBe("['a', 1, None, 2.0]");
    expect(pyRepr({ k: { "it's": [false] } })).toBe(`{'k': {"it's": [False]}}`);
  });
});

describe("float() accepts what Python accepts", () => {
  test.each(fixture.float_parse as [string, number | string | null][])("float(%j)", (text, expected) => {
    const value = parsePyFloat(text);
    if (expected === "nan") expect(value).toBeNaN();
    else if (expected === "inf") expect(value).toBe(Number.POSITIVE_INFINITY);
    else if (expected === "-inf") expect(value).toBe(Number.NEGATIVE_INFINITY);
    else expect(value).toBe(expected);
  });

  test("a rejected string is a ValueError with Python's message", () => {
    expect(() => pyFloat("1,000")).toThrow("could not convert string to float: '1,000'");
  });

  test("None is a TypeError; booleans are 1.0 and 0.0", () => {
    expect(() => pyFloat(null)).toThrow("float() argument must be a string or a real number, not 'NoneType'");
    expect(pyFloat(true)).toBe(1);
    expect(pyFloat(new PyFloat(3))).toBe(3);
  });
});

describe("truthiness and equality", () => {
  test('the string "false" is true; empty containers and zero are false', () => {
    expect(pyTruthy("false")).toBe(true);
    expect(pyTruthy("")).toBe(false);
    expect(pyTruthy(0)).toBe(false);
    expect(pyTruthy(new PyFloat(0))).toBe(false);
    expect(pyTruthy({})).toBe(false);
    expect(pyTruthy([0])).toBe(true);
    expect(pyTruthy(Number.NaN)).toBe(true);
  });

  test("1 == 1.0 == True, but not '1'", () => {
    expect(pyEquals(1, new PyFloat(1))).toBe(true);
    expect(pyEquals(true, 1)).toBe(true);
    expect(pyEquals("1", 1)).toBe(false);
    expect(pyEquals(null, null)).toBe(true);
    expect(pyEquals(null, false)).toBe(false);
    expect(pyEquals([1, "a"], [true, "a"])).toBe(true);
    expect(pyEquals({ a: 1 }, { a: 1.0 })).toBe(true);
    expect(pyEquals({ a: 1 }, { b: 1 })).toBe(false);
    expect(pyEquals(Number.NaN, Number.NaN)).toBe(false);
  });

  test("set keys merge 1, 1.0 and True; lists are unhashable", () => {
    expect(new Set([1, new PyFloat(1), true].map(pyHashKey)).size).toBe(1);
    expect(pyHashKey("1")).not.toBe(pyHashKey(1));
    expect(() => pyHashKey(["a"])).toThrow("unhashable type: 'list'");
  });

  test("iterating a str gives its code points; None is not iterable", () => {
    expect(pyIterate("a😀")).toEqual(["a", "😀"]);
    expect(pyIterate({ k: 1 })).toEqual(["k"]);
    expect(() => pyIterate(null)).toThrow(
      new VerificationError("TypeError", "'NoneType' object is not iterable"),
    );
  });
});

describe("Python's whitespace and punctuation", () => {
  test("the whitespace set is exactly str.isspace()", () => {
    expect([...PYTHON_WHITESPACE].sort()).toEqual([...(fixture.whitespace as string)].sort());
  });

  test("strip and split use it: U+001C and U+0085 go, U+FEFF stays", () => {
    expect(pyStrip("\x1c\x85 x \u3000")).toBe("x");
    expect(pyStrip("\ufeffx")).toBe("\ufeffx");
    // Hostile input: a search for trailing whitespace backtracks over every inner run (quadratic, minutes).
    expect(pyStrip(`${" ".repeat(1_000_000)}x${" ".repeat(5)}`)).toBe("x");
    expect(pySplit(" a\x1fb\u00a0c ")).toEqual(["a", "b", "c"]);
    expect(pySplit(" \t ")).toEqual([]);
  });

  test("only ASCII punctuation is removed", () => {
    expect(removePunctuation(PYTHON_PUNCTUATION)).toBe("");
    expect(removePunctuation("a-b–c! {d}_e\\f")).toBe("ab–c def");
  });
});
