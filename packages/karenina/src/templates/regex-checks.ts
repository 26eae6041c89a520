import { setOwn } from "../plain-data/index.js";
import { type FindallMatch, type PythonRegexRunOptions, pythonFindall } from "../python-regex/index.js";
import type { RegexCheck, RegexReport } from "./answer-template.js";

/** Python `==` between a findall match (a str, or a tuple of str) and a JSON value: tuples equal no JSON value. */
function matchEquals(match: FindallMatch, expected: unknown): boolean {
  return typeof match === "string" && match === expected;
}

type Verdict = { passed: true; reason: string } | { passed: false; reason: string };

function judge(check: RegexCheck, matches: FindallMatch[]): Verdict {
  const { expected, match_type: type } = check;
  switch (type) {
    case "exact": {
      const only = matches.length === 1 ? matches[0] : undefined;
      return only !== undefined && matchEquals(only, expected)
        ? { passed: true, reason: "exactly one match, equal to the expected value" }
        : {
            passed: false,
            reason: `expected exactly one match equal to ${JSON.stringify(expected)}, found ${matches.length}`,
          };
    }
    case "contains":
      return matches.some((m) => matchEquals(m, expected))
        ? { passed: true, reason: "the expected value is among the matches" }
        : { passed: false, reason: `${JSON.stringify(expected)} is not among the ${matches.length} matches` };
    case "count": {
      const wanted = typeof expected === "boolean" ? Number(expected) : expected;
      if (typeof wanted !== "number" || !Number.isInteger(wanted)) {
        return { passed: false, reason: "count checks need an integer expected value" };
      }
      return matches.length === wanted
        ? { passed: true, reason: `found ${wanted} matches` }
        : { passed: false, reason: `expected ${wanted} matches, found ${matches.length}` };
    }
    case "all": {
      if (!Array.isArray(expected))
        return { passed: false, reason: "all checks need a list as the expected value" };
      const missing = expected.filter((value) => !matches.some((m) => matchEquals(m, value)));
      return missing.length === 0
        ? { passed: true, reason: "every expected value was matched" }
        : { passed: false, reason: `not matched: ${JSON.stringify(missing)}` };
    }
    default:
      return { passed: false, reason: `Unknown match_type: ${type}` };
  }
}

/**
 * The original's `verify_regex(text)` (spec 02 §2.6): each named check runs Python's `re.findall` on the raw
 * response and compares the matches with the expected value by its `match_type`. An invalid pattern, or one
 * that runs past its deadline (`options.timeoutMs`, else the process default of 1000 ms), fails its check
 * with the error in the details; the other checks still run.
 * @example
 * verifyRegexChecks({ cites: { pattern: String.raw`\[\d+\]`, expected: 2, match_type: "count" } }, "a [1] b [2]").success; // true
 */
export function verifyRegexChecks(
  checks: Record<string, Partial<RegexCheck>> | null | undefined,
  text: string,
  options: Pick<PythonRegexRunOptions, "timeoutMs"> = {},
): RegexReport {
  const report: RegexReport = { success: true, results: {}, details: {} };
  for (const [name, given] of Object.entries(checks ?? {})) {
    const check: RegexCheck = {
      pattern: given.pattern ?? "",
      expected: given.expected ?? null,
      match_type: given.match_type ?? "exact",
    };
    const base = { pattern: check.pattern, expected: check.expected, match_type: check.match_type };
    let matches: FindallMatch[];
    try {
      matches = pythonFindall(check.pattern, text, { timeoutMs: options.timeoutMs });
    } catch (error) {
      setOwn(report.results, name, false);
      setOwn(report.details, name, { error: (error as Error).message, ...base });
      report.success = false;
      continue;
    }
    const verdict = judge(check, matches);
    // Check names come from the template: written as keys even when one is named `__proto__`.
    setOwn(report.results, name, verdict.passed);
    setOwn(report.details, name, {
      ...base,
      matches_found: matches,
      match_count: matches.length,
      [verdict.passed ? "success_reason" : "failure_reason"]: verdict.reason,
    });
    if (!verdict.passed) report.success = false;
  }
  return report;
}
