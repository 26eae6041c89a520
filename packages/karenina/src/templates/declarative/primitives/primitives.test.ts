import { describe, expect, test } from "vitest";
import { PyFloat } from "../../../python-repr/index.js";
import { PrimitiveError, VerificationError } from "../errors.js";
import type { TracePrimitive, ValuePrimitive } from "./primitive.js";
import { createPrimitive, PRIMITIVE_NAMES, primitiveFromJson } from "./registry.js";

const value = (name: string, params: Record<string, unknown> = {}) =>
  createPrimitive(name, params) as ValuePrimitive;
const trace = (name: string, params: Record<string, unknown> = {}) =>
  createPrimitive(name, params) as TracePrimitive;

describe("the registry", () => {
  test("holds the 23 primitives of the original", () => {
    expect(PRIMITIVE_NAMES).toHaveLength(23);
  });

  test("serializes every parameter, defaults included, in declaration order with type last", () => {
    expect(JSON.stringify(createPrimitive("ExactMatch").toJSON())).toBe(
      '{"normalize":["lowercase","strip"],"type":"ExactMatch"}',
    );
    expect(createPrimitive("BooleanMatch").toJSON()).toEqual({ type: "BooleanMatch" });
    expect(JSON.stringify(createPrimitive("SetContainment", { mode: "superset" }).toJSON())).toBe(
      '{"mode":"superset","min_overlap":null,"type":"SetContainment"}',
    );
    expect(
      Object.keys(createPrimitive("NumericRangeGraded", { min: 1, max: 2, margin: 1 }).toJSON()),
    ).toEqual(["min", "max", "margin", "mode", "decay", "exclusive_min", "exclusive_max", "type"]);
  });

  test("a SynonymMap normalizer round-trips as {mapping}", () => {
    const data = { normalize: ["lowercase", { mapping: { "bcl-2": "bcl2" } }], type: "ExactMatch" };
    expect(primitiveFromJson(data).toJSON()).toEqual(data);
  });

  test("reconstruction errors say what is wrong", () => {
    expect(() => primitiveFromJson({ normalize: [] })).toThrow("Primitive data missing 'type' key");
    expect(() => primitiveFromJson({ type: "Fuzzy" })).toThrow("Unknown primitive type: 'Fuzzy'");
    expect(() => primitiveFromJson({ type: "NumericTolerance" })).toThrow(
      "1 validation error for NumericTolerance\ntolerance\n  Field required",
    );
    expect(() => createPrimitive("NumericTolerance", { tolerance: 0.1, mode: "fuzzy" })).toThrow(
      PrimitiveError,
    );
  });

  test("parameters are coerced as Pydantic does; unknown keys are ignored", () => {
    expect(
      primitiveFromJson({ type: "NumericRange", min: "1.5", exclusive_max: "yes", extra: 1 }).toJSON(),
    ).toEqual({
      min: 1.5,
      max: null,
      exclusive_min: false,
      exclusive_max: true,
      type: "NumericRange",
    });
    expect(createPrimitive("TraceRegex", { pattern: "x", count_min: 2.0 }).params.count_min).toBe(2);
    expect(() => createPrimitive("TraceRegex", { pattern: "x", count_min: 2.5 })).toThrow("valid integer");
    expect(() => createPrimitive("TraceContains", { substring: 5 })).toThrow("valid string");
  });

  test("graded primitives refuse impossible bounds at construction", () => {
    expect(() => createPrimitive("NumericGraded", { cutoff: 0 })).toThrow("greater than 0");
    expect(() => createPrimitive("NumericGraded", { cutoff: 0.1, full_credit: 0.2 })).toThrow(
      "less than cutoff",
    );
    expect(() => createPrimitive("NumericGraded", { cutoff: 0.1, full_credit: -0.1 })).toThrow(">= 0");
    expect(() => createPrimitive("NumericRangeGraded", { min: 2, max: 1, margin: 1 })).toThrow(
      "min must be less",
    );
    expect(() => createPrimitive("NumericThresholdGraded", { direction: "up", margin: 1 })).toThrow(
      '"max" or "min"',
    );
  });
});

describe("boolean, string and categorical primitives", () => {
  test("BooleanMatch compares truthiness; null matches only null", () => {
    const p = value("BooleanMatch");
    expect(p.check("false", true)).toBe(true);
    expect(p.check(0, false)).toBe(true);
    expect(p.check(null, null)).toBe(true);
    expect(p.check(null, false)).toBe(false);
  });

  test("ExactMatch compares str() after normalization: 5 vs 5.0 fails, None vs 'none' passes", () => {
    const p = value("ExactMatch");
    expect(p.check(" BCL2 ", "bcl2")).toBe(true);
    expect(p.check(5, new PyFloat(5))).toBe(false);
    expect(p.check(5.5, "5.5")).toBe(true);
    expect(p.check(null, "none")).toBe(true);
    expect(p.score("x", "y")).toBe(0);
  });

  test("normalizers apply left to right; an unknown one fails when applied", () => {
    const synonyms = value("ExactMatch", { normalize: ["lowercase", { mapping: { "bcl-2": "bcl2" } }] });
    expect(synonyms.check("BCL-2", "bcl2")).toBe(true);
    const wrongOrder = value("ExactMatch", { normalize: [{ mapping: { "bcl-2": "bcl2" } }, "lowercase"] });
    expect(wrongOrder.check("BCL-2", "bcl2")).toBe(false);
    const punctuation = value("ExactMatch", { normalize: ["remove_punctuation", "collapse_whitespace"] });
    expect(punctuation.check("B.C.L-2 \u3000 x", "BCL2 x")).toBe(true);
    const unknown = value("ExactMatch", { normalize: ["uppercase"] });
    expect(() => unknown.check("a", "a")).toThrow("Unknown normalizer: 'uppercase'");
  });

  test("ContainsAny and ContainsAll ignore the ground truth; empty lists give false and true", () => {
    expect(
      value("ContainsAny", { substrings: ["BCL2", "bcl-2"], normalize: ["lowercase"] }).check(
        "Targets BCL-2",
        null,
      ),
    ).toBe(true);
    expect(value("ContainsAny", { substrings: [] }).check("x", null)).toBe(false);
    expect(value("ContainsAll", { substrings: [] }).check("x", null)).toBe(true);
    expect(value("ContainsAll", { substrings: ["a", "B"] }).check("a b", null)).toBe(false);
  });

  test("RegexMatch searches str() of the value with Python syntax and re flag names", () => {
    expect(value("RegexMatch", { pattern: "^(?P<g>bcl-?2)$" }).check("bcl2", null)).toBe(true);
    expect(value("RegexMatch", { pattern: "bcl2" }).check("BCL2", null)).toBe(false);
    expect(value("RegexMatch", { pattern: "bcl2", flags: ["IGNORECASE"] }).check("BCL2", null)).toBe(true);
    expect(value("RegexMatch", { pattern: "bcl2", flags: ["ignorecase"] }).check("BCL2", null)).toBe(false);
    expect(value("RegexMatch", { pattern: "^b", flags: ["M"] }).check("a\nb", null)).toBe(true);
    expect(value("RegexMatch", { pattern: "None" }).check(null, null)).toBe(true);
    expect(() => value("RegexMatch", { pattern: "(" }).check("x", null)).toThrow();
  });

  test("SemanticMatch always raises NotImplementedError", () => {
    expect(() => value("SemanticMatch").check("a", "a")).toThrow(VerificationError);
  });

  test("LiteralMatch is Python ==", () => {
    const p = value("LiteralMatch");
    expect(p.check("high", "high")).toBe(true);
    expect(p.check("High", "high")).toBe(false);
    expect(p.check(1, new PyFloat(1))).toBe(true);
    expect(p.check(true, 1)).toBe(true);
  });
});

describe("numeric primitives", () => {
  test("NumericExact converts with float(): '1e3' equals 1000; a bad string raises", () => {
    expect(value("NumericExact").check("1e3", 1000)).toBe(true);
    expect(() => value("NumericExact").check("1,000", 1000)).toThrow("could not convert string to float");
    expect(() => value("NumericExact").check(null, 1)).toThrow("not 'NoneType'");
  });

  test("NumericTolerance: relative to the ground truth, and only an exact hit when it is 0", () => {
    const relative = value("NumericTolerance", { tolerance: 0.1 });
    expect(relative.check(109, 100)).toBe(true);
    expect(relative.check(111, 100)).toBe(false);
    expect(relative.check(0, 0)).toBe(true);
    expect(relative.check(1e-9, 0)).toBe(false);
    expect(value("NumericTolerance", { tolerance: 0.5, mode: "absolute" }).check("1.5", 1)).toBe(true);
  });

  test("NumericRange ignores the ground truth; bounds are inclusive unless exclusive", () => {
    const p = value("NumericRange", { min: 1, max: 5, exclusive_max: true });
    expect(p.check(1, null)).toBe(true);
    expect(p.check(5, null)).toBe(false);
    expect(value("NumericRange", { max: 5 }).check(-1e9, null)).toBe(true);
  });

  test("NumericMinimum and NumericMaximum compare with the ground truth as threshold", () => {
    expect(value("NumericMinimum").check(3, "3")).toBe(true);
    expect(value("NumericMinimum", { exclusive: true }).check(3, 3)).toBe(false);
    expect(value("NumericMaximum").check(3, 3)).toBe(true);
    expect(value("NumericMaximum", { exclusive: true }).check(3, 3)).toBe(false);
  });

  test("NumericGraded worked examples: cutoff 0.2 gives 0.5 at 10 %; with full_credit and quadratic 0.8889", () => {
    const linear = value("NumericGraded", { cutoff: 0.2 });
    expect(linear.check(110, 100)).toBe(true);
    expect(linear.score(110, 100)).toBeCloseTo(0.5, 12);
    const quadratic = value("NumericGraded", { cutoff: 0.2, full_credit: 0.05, decay: "quadratic" });
    expect(quadratic.check(110, 100)).toBe(false);
    expect(quadratic.score(110, 100)).toBeCloseTo(1 - (0.05 / 0.15) ** 2, 12);
    expect(quadratic.score(104, 100)).toBe(1);
    expect(linear.score(130, 100)).toBe(0);
  });

  test("NumericGraded relative to 0 is undefined unless exact", () => {
    const p = value("NumericGraded", { cutoff: 0.2 });
    expect(p.check(0, 0)).toBe(true);
    expect(p.check(0.01, 0)).toBe(false);
    expect(p.score(0.01, 0)).toBe(0);
    expect(value("NumericGraded", { cutoff: 0.2, mode: "absolute" }).score(0.1, 0)).toBeCloseTo(0.5, 12);
  });

  test("NumericRangeGraded: check honours exclusivity, score ignores it", () => {
    const p = value("NumericRangeGraded", { min: 10, max: 20, margin: 4, exclusive_max: true });
    expect(p.check(20, null)).toBe(false);
    expect(p.score(20, null)).toBe(1);
    expect(p.score(22, null)).toBeCloseTo(0.5, 12);
    expect(p.score(5, null)).toBe(0);
    const relative = value("NumericRangeGraded", {
      min: 10,
      max: 20,
      margin: 0.5,
      mode: "relative",
      decay: "quadratic",
    });
    expect(relative.score(7.5, null)).toBeCloseTo(0.75, 12);
  });

  test("NumericThresholdGraded worked example: max, margin 0.1 relative, t=100, v=105 → false, 0.5", () => {
    const p = value("NumericThresholdGraded", { direction: "max", margin: 0.1 });
    expect(p.check(105, 100)).toBe(false);
    expect(p.score(105, 100)).toBeCloseTo(0.5, 12);
    expect(p.score(90, 100)).toBe(1);
    expect(value("NumericThresholdGraded", { direction: "min", margin: 0.1 }).score(5, 0)).toBe(1);
    expect(value("NumericThresholdGraded", { direction: "max", margin: 0.1 }).score(5, 0)).toBe(0);
    expect(
      value("NumericThresholdGraded", {
        direction: "min",
        margin: 2,
        mode: "absolute",
        exclusive: true,
      }).check(3, 3),
    ).toBe(false);
  });
});

describe("list primitives", () => {
  test("SetContainment uses Python set semantics", () => {
    const exact = value("SetContainment");
    expect(exact.check(["a", "b", "a"], ["b", "a"])).toBe(true);
    expect(exact.check(["A"], ["a"])).toBe(false);
    expect(exact.check([1, true, new PyFloat(1)], [1])).toBe(true);
    expect(exact.check("ab", ["a", "b"])).toBe(true);
    expect(value("SetContainment", { mode: "subset" }).check(["a"], ["a", "b"])).toBe(true);
    expect(value("SetContainment", { mode: "superset" }).check(["a"], ["a", "b"])).toBe(false);
    expect(() => exact.check(null, ["a"])).toThrow("'NoneType' object is not iterable");
    expect(() => value("SetContainment", { mode: "fuzzy" }).check([], [])).toThrow("Unknown mode: fuzzy");
  });

  test("SetContainment overlap needs min_overlap shared elements, and 0 counts as 1", () => {
    expect(value("SetContainment", { mode: "overlap" }).check(["a", "x"], ["a", "b"])).toBe(true);
    expect(value("SetContainment", { mode: "overlap", min_overlap: 0 }).check(["x"], ["a"])).toBe(false);
    expect(value("SetContainment", { mode: "overlap", min_overlap: 2 }).check(["a", "x"], ["a", "b"])).toBe(
      false,
    );
  });

  test("OrderedMatch needs equal lengths, then pairwise normalized equality", () => {
    const p = value("OrderedMatch");
    expect(p.check([" A", "b"], ["a", "B "])).toBe(true);
    expect(p.check(["b", "a"], ["a", "b"])).toBe(false);
    expect(p.check(["a"], ["a", "b"])).toBe(false);
    expect(p.check([1, null], ["1", "none"])).toBe(true);
    expect(() => p.check(null, [])).toThrow("object of type 'NoneType' has no len()");
  });
});

describe("date primitives", () => {
  test("DateMatch compares calendar dates; numeric dates are month-first", () => {
    const p = value("DateMatch");
    expect(p.check("March 5, 2020", "2020-03-05T23:00")).toBe(true);
    expect(p.check("05/03/2020", "2020-05-03")).toBe(true);
    expect(p.check("05/03/2020", "2020-03-05")).toBe(false);
    expect(p.check("not a date", "2020-03-05")).toBe(false);
    expect(p.check(20200305, "2020-03-05")).toBe(false);
  });

  test("DateMatch with a format uses strptime on both sides", () => {
    const p = value("DateMatch", { format: "%d/%m/%Y" });
    expect(p.check("05/03/2020", "5/3/2020")).toBe(true);
    expect(p.check("2020-03-05", "05/03/2020")).toBe(false);
  });

  test("DateTolerance on full datetimes; naive vs aware fails", () => {
    expect(value("DateTolerance", { tolerance: 2 }).check("2020-03-07", "2020-03-05")).toBe(true);
    expect(value("DateTolerance", { tolerance: 1 }).check("2020-03-07", "2020-03-05")).toBe(false);
    expect(
      value("DateTolerance", { tolerance: 90, unit: "minutes" }).check(
        "2020-03-05T11:00+01:00",
        "2020-03-05T10:30Z",
      ),
    ).toBe(true);
    expect(value("DateTolerance", { tolerance: 5 }).check("2020-03-05T10:00Z", "2020-03-05")).toBe(false);
  });

  test("DateRange: a date-only bound is midnight", () => {
    const p = value("DateRange", { min: "2020-01-01", max: "2020-12-31" });
    expect(p.check("2020-06-01", null)).toBe(true);
    expect(p.check("2020-12-31T10:00", null)).toBe(false);
    expect(value("DateRange", { min: "2020-01-01" }).check("2019-12-31", null)).toBe(false);
  });

  test("an OverflowError escapes, as in the original", () => {
    expect(() => value("DateMatch").check("12345678901234567890", "2020-01-01")).toThrow(VerificationError);
  });
});

describe("trace primitives", () => {
  test("TraceRegex counts non-overlapping findall matches", () => {
    expect(trace("TraceRegex", { pattern: String.raw`\[\d+\]` }).checkTrace("see [1] and [2]")).toBe(true);
    expect(trace("TraceRegex", { pattern: String.raw`\[\d+\]`, count_min: 3 }).checkTrace("[1] [2]")).toBe(
      false,
    );
    expect(trace("TraceRegex", { pattern: "aa", count_min: 2 }).checkTrace("aaa")).toBe(false);
    expect(trace("TraceRegex", { pattern: "x" }).checkTrace("")).toBe(false);
  });

  test("TraceContains is a case-sensitive substring test", () => {
    expect(trace("TraceContains", { substring: "BCL2" }).checkTrace("about BCL2.")).toBe(true);
    expect(trace("TraceContains", { substring: "BCL2" }).checkTrace("about bcl2.")).toBe(false);
  });

  test("TraceLength counts words on Python whitespace, else code points", () => {
    expect(trace("TraceLength", { max: 3, unit: "words" }).checkTrace("one\x1ctwo\u0085three")).toBe(true);
    expect(trace("TraceLength", { max: 2, unit: "words" }).checkTrace("one\x1ctwo\u0085three")).toBe(false);
    expect(trace("TraceLength", { min: 2, max: 2 }).checkTrace("😀😀")).toBe(true);
    expect(trace("TraceLength", { max: 1, unit: "tokens" }).checkTrace("ab")).toBe(false);
  });
});
