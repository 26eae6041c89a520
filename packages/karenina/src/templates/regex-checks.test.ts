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
