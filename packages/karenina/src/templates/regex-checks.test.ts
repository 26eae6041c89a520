import { expect, test } from "vitest";
import { verifyRegexChecks } from "./regex-checks.js";

const TEXT = "Targets: BCL2 [1], MCL1 [2]. See also BCL2.";

test("no checks succeed with empty results", () => {
  expect(verifyRegexChecks(undefined, TEXT)).toEqual({ success: true, results: {}, details: {} });
});

test("each match type follows the original's verify_regex", () => {
  const report = verifyRegexChecks(
    {
      exact_one: { pattern: "MCL\\d", expected: "MCL1", match_type: "exact" },
      exact_many: { pattern: "BCL\\d", expected: "BCL2", match_type: "exact" },
      contains: { pattern: "[A-Z]{3}\\d", expected: "MCL1", match_type: "contains" },
      count: { pattern: "\\[(\\d)\\]", expected: 2, match_type: "count" },
      all: { pattern: "\\[(\\d)\\]", expected: ["1", "2"], match_type: "all" },
      default_exact: { pattern: "MCL1", expected: "MCL1" },
    },
    TEXT,
  );
  expect(report.results).toEqual({
    exact_one: true,
    exact_many: false,
    contains: true,
    count: true,
    all: true,
    default_exact: true,
  });
  expect(report.success).toBe(false);
  expect(report.details.count).toMatchObject({
    matches_found: ["1", "2"],
    match_count: 2,
    match_type: "count",
  });
  expect(report.details.exact_many).toHaveProperty("failure_reason");
  expect(report.details.exact_one).toHaveProperty("success_reason");
});

test("several groups give tuples, which equal no expected value", () => {
  const report = verifyRegexChecks(
    { pair: { pattern: "(\\w+) \\[(\\d)\\]", expected: "MCL1", match_type: "contains" } },
    TEXT,
  );
  expect(report.details.pair?.matches_found).toEqual([
    ["BCL2", "1"],
    ["MCL1", "2"],
  ]);
  expect(report.results.pair).toBe(false);
});

test("an invalid pattern fails its check with the error, and unknown match types fail", () => {
  const report = verifyRegexChecks(
    {
      bad: { pattern: "(", expected: 1, match_type: "count" },
      odd: { pattern: "x", expected: 1, match_type: "fuzzy" },
    },
    TEXT,
  );
  expect(report.results).toEqual({ bad: false, odd: false });
  expect(report.details.bad).toHaveProperty("error");
  expect(report.details.odd?.failure_reason).toBe("Unknown match_type: fuzzy");
});

// A crafted response: 40 word characters and a '!', on which both patterns try all 2^40 splits of the run.
const CRAFTED = `${"a".repeat(40)}!`;

test("a check whose pattern backtracks catastrophically fails at its deadline; the others still run", () => {
  const start = performance.now();
  const report = verifyRegexChecks(
    {
      nested: { pattern: "(a+)+$", expected: 1, match_type: "count" },
      words: { pattern: String.raw`^(\w+\s?)+$`, expected: CRAFTED, match_type: "exact" },
      bang: { pattern: "!", expected: 1, match_type: "count" },
    },
    CRAFTED,
    { timeoutMs: 300 },
  );
  expect(performance.now() - start).toBeLessThan(5000);
  expect(report.success).toBe(false);
  expect(report.results).toEqual({ nested: false, words: false, bang: true });
  expect(report.details.nested).toEqual({
    pattern: "(a+)+$",
    expected: 1,
    match_type: "count",
    error:
      'Python regex "(a+)+$" timed out after 300 ms on a 41-character text and was stopped; the pattern ' +
      "backtracks catastrophically (nested quantifiers such as (a+)+?): rewrite it so that each part of the " +
      "text can be matched in only one way",
  });
  expect(report.details.words?.error).toContain("timed out after 300 ms on a 41-character text");

  const next = verifyRegexChecks(
    {
      nested: { pattern: "(a+)+$", expected: 1, match_type: "count" },
      // findall returns the group's last repetition, as in Python.
      words: { pattern: String.raw`^(\w+\s?)+$`, expected: "words", match_type: "exact" },
    },
    "two words",
  );
  expect(next.results).toEqual({ nested: false, words: true });
});
