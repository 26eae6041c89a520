/**
 * `self.regex` checks on the raw response (spec 02 §2.6–2.7), run with Python's own `re`. Templates are written
 * for these tests; raw responses and parsed answers are hand-written, not real model output.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { PythonSandbox } from "../../sandbox/index.js";
import { loadPythonTemplate } from "./index.js";

let sandbox: PythonSandbox;

beforeAll(async () => {
  sandbox = PythonSandbox.create();
  await sandbox.start();
});

afterAll(async () => {
  await sandbox.close();
});

const load = (code: string) => loadPythonTemplate(code, { sandbox });

/** A template with no fields whose ground_truth() sets `self.regex = {checks}` (a Python dict literal). */
const regexOnly = (checks: string, methods = "") =>
  `class Answer(BaseAnswer):\n    def ground_truth(self):\n        self.regex = ${checks}\n${methods}`;

const RAW = "The answer is 42. BCL2 and MCL1 bind [1], [2] and [3]. a=1";

describe("match types", () => {
  test("exact, contains, count and all, with capture groups as Python's findall returns them", async () => {
    const template = await load(
      regexOnly(`{
            "answer": {"pattern": r"answer is (\\d+)", "expected": "42"},
            "cites": {"pattern": r"\\[(\\d+)\\]", "expected": "2", "match_type": "contains"},
            "count": {"pattern": r"\\[\\d+\\]", "expected": 3, "match_type": "count"},
            "genes": {"pattern": r"\\b[A-Z]{3,}\\d\\b", "expected": ["MCL1", "BCL2"], "match_type": "all"},
        }`),
    );
    expect(template.needsNoJudge).toBe(true);
    const evaluation = await template.evaluate({}, { rawResponse: RAW });
    expect(evaluation).toMatchObject({ verify: true, fieldVerify: true, error: null });
    expect(evaluation.regex.results).toEqual({ answer: true, cites: true, count: true, genes: true });
    expect(evaluation.regex.details.cites).toEqual({
      pattern: String.raw`\[(\d+)\]`,
      expected: "2",
      match_type: "contains",
      matches_found: ["1", "2", "3"],
      match_count: 3,
      success_reason: "the expected value is among the matches",
    });
  });

  test("failures say why; several groups give tuples, which equal no JSON value", async () => {
    const template = await load(
      regexOnly(`{
            "pairs": {"pattern": r"(\\w)=(\\d)", "expected": ["a", "1"]},
            "count": {"pattern": r"\\[\\d+\\]", "expected": 2, "match_type": "count"},
            "typed": {"pattern": r"\\d+", "expected": 42, "match_type": "contains"},
            "missing": {"pattern": r"[A-Z]+\\d", "expected": ["BCL2", "TP53"], "match_type": "all"},
            "kind": {"pattern": "x", "expected": "x", "match_type": "regexp"},
        }`),
    );
    const { verify, fieldVerify, regex } = await template.evaluate({}, { rawResponse: RAW });
    expect([verify, fieldVerify, regex.success]).toEqual([false, true, false]);
    expect(regex.results).toEqual({ pairs: false, count: false, typed: false, missing: false, kind: false });
    expect(regex.details.pairs).toEqual({
      pattern: String.raw`(\w)=(\d)`,
      expected: ["a", "1"],
      match_type: "exact",
      matches_found: [["a", "1"]],
      match_count: 1,
      failure_reason: 'expected exactly one match equal to ["a","1"], found 1',
    });
    expect(regex.details.count?.failure_reason).toBe("expected 2 matches, found 3");
    expect(regex.details.missing?.failure_reason).toBe('not matched: ["TP53"]');
    expect(regex.details.kind?.failure_reason).toBe("Unknown match_type: regexp");
  });

  test("count takes True as 1; an invalid pattern fails its check with Python's error", async () => {
    const template = await load(
      regexOnly(`{
            "one": {"pattern": "answer", "expected": True, "match_type": "count"},
            "broken": {"pattern": "(", "expected": 1, "match_type": "count"},
        }`),
    );
    const { regex } = await template.evaluate({}, { rawResponse: RAW });
    expect(regex.results).toEqual({ one: true, broken: false });
    expect(regex.details.broken).toEqual({
      error: "missing ), unterminated subpattern at position 0",
      pattern: "(",
      expected: 1,
      match_type: "count",
    });
  });

  test("without a raw response the checks run on the empty text", async () => {
    const template = await load(
      regexOnly(`{"none": {"pattern": "x", "expected": 0, "match_type": "count"}}`),
    );
    expect((await template.evaluate({})).verify).toBe(true);
  });
});

describe("how regex checks combine with the field checks", () => {
  test("verify is the field checks AND the regex checks", async () => {
    const code = [
      "class Answer(BaseAnswer):",
      "    value: int = Field(description='The answer')",
      "    def ground_truth(self):",
      "        self.correct = {'value': 42}",
      "        self.regex = {'cites': {'pattern': r'\\[\\d+\\]', 'expected': 1, 'match_type': 'count'}}",
      "    def verify(self):",
      "        return self.value == self.correct['value']",
    ].join("\n");
    const template = await load(code);
    expect(template.needsNoJudge).toBe(false);
    // Hand-written parsed answers and raw responses.
    expect(await template.evaluate({ value: "42" }, { rawResponse: "42 [1]" })).toMatchObject({
      verify: true,
      fieldVerify: true,
    });
    expect(await template.evaluate({ value: 42 }, { rawResponse: "42 [1] [2]" })).toMatchObject({
      verify: false,
      fieldVerify: true,
      regex: { success: false, results: { cites: false } },
    });
    expect(await template.evaluate({ value: 41 }, { rawResponse: "41 [1]" })).toMatchObject({
      verify: false,
      fieldVerify: false,
      regex: { success: true },
    });
  });

  test("regex-only path: a verify() that raises gives false without an error, and granular still runs", async () => {
    const template = await load(
      regexOnly(
        `{"answer": {"pattern": "42", "expected": "42"}}`,
        "    def verify(self):\n        raise ValueError('no fields to check')\n    def verify_granular(self):\n        return 0.5\n",
      ),
    );
    expect(await template.evaluate({}, { rawResponse: RAW })).toMatchObject({
      verify: false,
      fieldVerify: false,
      verifyGranular: 0.5,
      error: null,
      regex: { success: true },
    });
  });

  test("a field named `regex` still leaves the template regex-only, and the original's Answer() then fails", async () => {
    const code = "class Answer(BaseAnswer):\n    regex: str = Field(description='x')\n";
    const template = await load(code);
    expect(template.needsNoJudge).toBe(true);
    expect((await template.evaluate({ regex: "ignored" })).error).toBe(
      "Parsed answer does not match the template: regex: Field required (got {})",
    );
  });
});
