import { describe, expect, test } from "vitest";
import { findLongestMatch } from "./longest-match.js";

/**
 * Expected values were computed with CPython 3.11's difflib for these tests:
 * `m = SequenceMatcher(None, a, b).find_longest_match(0, len(a), 0, len(b))`.
 */
describe("findLongestMatch reproduces difflib's find_longest_match", () => {
  test("short sequences: the plain longest common block", () => {
    expect(findLongestMatch("BCL2 protein", "the BCL2 gene")).toEqual({ a: 0, b: 4, size: 5 });
    expect(findLongestMatch("", "abc")).toEqual({ a: 0, b: 0, size: 0 });
    expect(findLongestMatch("xyz", "abc")).toEqual({ a: 0, b: 0, size: 0 });
  });

  test("ties go to the earliest block in a, then in b", () => {
    // difflib: Match(a=0, b=0, size=2) for ("abXab", "ab-ab")
    expect(findLongestMatch("abXab", "ab-ab")).toEqual({ a: 0, b: 0, size: 2 });
  });

  test("autojunk on a b of 200+ items: popular characters cannot carry the core match (shorter than the true LCS)", () => {
    const excerpt = "selectively inhibits BCL2, an anti-apoptotic protein";
    const response =
      "Venetoclax is a BH3 mimetic that selectively inhibits BCL-2, an anti-apoptotic protein overexpressed in chronic lymphocytic leukaemia. By binding BCL-2 it frees pro-apoptotic proteins such as BIM, which triggers mitochondrial outer membrane permeabilisation and cell death.";
    // difflib with autojunk: Match(a=0, b=33, size=24); without autojunk it would be (24, 58, 28).
    expect(findLongestMatch(excerpt, response)).toEqual({ a: 0, b: 33, size: 24 });
  });

  test("a match made only of popular characters is still found through the extension step", () => {
    const b = `${"ab".repeat(120)}Q`;
    // difflib: Match(a=0, b=0, size=4) and, for "ababQ", Match(a=0, b=236, size=5)
    expect(findLongestMatch("abab", b)).toEqual({ a: 0, b: 0, size: 4 });
    expect(findLongestMatch("ababQ", b)).toEqual({ a: 0, b: 236, size: 5 });
  });

  test("positions count code points, as Python does", () => {
    // difflib: Match(a=1, b=2, size=3) for ("x😀yz", "ab😀yz")
    expect(findLongestMatch("x😀yz", "ab😀yz")).toEqual({ a: 1, b: 2, size: 3 });
  });
});
