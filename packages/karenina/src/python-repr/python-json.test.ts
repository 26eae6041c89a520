import { describe, expect, test } from "vitest";
import { PyFloat } from "./py-float.js";
import { pythonJson } from "./python-json.js";

// Expected values are what CPython 3.12's json.dumps prints for the same values.
describe("Python json.dumps", () => {
  test("separators with spaces, UTF-8 kept by default, escaped with ensureAscii (DEL and astral characters too)", () => {
    expect(pythonJson({ a: ["é", 1], b: null })).toBe('{"a": ["é", 1], "b": null}');
    expect(pythonJson("é\u007f😀\n", { ensureAscii: true })).toBe('"\\u00e9\\u007f\\ud83d\\ude00\\n"');
    expect(pythonJson("\u007f\u0001")).toBe('"\u007f\\u0001"');
  });

  test("ints and floats as Python writes them; floats where the spec or a PyFloat says so", () => {
    expect(pythonJson([1, 0.1, 1e-5, 1e21, 1e16, -0, Number.NaN, -Infinity])).toBe(
      "[1, 0.1, 1e-05, 1000000000000000000000, 10000000000000000, 0, NaN, -Infinity]",
    );
    expect(pythonJson({ t: 5, u: [1, 2], v: 3 }, { floats: { t: true, u: { "*": true } } })).toBe(
      '{"t": 5.0, "u": [1.0, 2.0], "v": 3}',
    );
    expect(pythonJson({ x: new PyFloat(2), y: 1e16 }, { floats: { y: true } })).toBe(
      '{"x": 2.0, "y": 1e+16}',
    );
  });

  test("undefined entries are left out of objects and become null in arrays", () => {
    expect(pythonJson({ a: undefined, b: [undefined] })).toBe('{"b": [null]}');
  });
});
