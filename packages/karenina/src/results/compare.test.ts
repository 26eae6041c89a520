import { readFile } from "node:fs/promises";
import { describe, expect, test } from "vitest";
import { conformancePath, hasConformance, SKIP_REASON } from "../test-support/conformance.js";
import { row } from "./__fixtures__/rows.js";
import { compareRuns, parseVerificationResult, rowOutcome, VerificationResultSet } from "./index.js";

const questionsOf = (changes: readonly { question_id: string }[]) =>
  changes.map((change) => change.question_id);

describe("comparing two runs", () => {
  const before = [
    row({ question: "q1", replicate: 1, verify: true, runName: "monday" }),
    row({ question: "q1", replicate: 2, verify: true, runName: "monday" }),
    row({ question: "q2", replicate: 1, verify: false, runName: "monday" }),
    row({ question: "q3", replicate: 1, verify: true, runName: "monday" }),
    row({ question: "q4", replicate: 1, failure: { category: "timeout" }, runName: "monday" }),
    row({ question: "q5", replicate: 1, verify: true, runName: "monday" }),
  ];
  const after = [
    row({ question: "q1", replicate: 1, verify: false, runName: "tuesday" }),
    row({ question: "q1", replicate: 2, verify: true, runName: "tuesday" }),
    row({ question: "q2", replicate: 1, verify: true, runName: "tuesday" }),
    row({ question: "q3", replicate: 1, failure: { category: "rate_limit" }, runName: "tuesday" }),
    row({ question: "q4", replicate: 1, failure: { category: "connection" }, runName: "tuesday" }),
    row({ question: "q6", replicate: 1, verify: true, runName: "tuesday" }),
  ];
  const comparison = compareRuns(before, new VerificationResultSet(after));

  test("rows match by question, models and replicate across run names", () => {
    expect(comparison.summary).toMatchObject({
      rows_before: 6,
      rows_after: 6,
      matched: 5,
      only_before: 1,
      only_after: 1,
      unchanged: 1,
    });
    expect(questionsOf(comparison.only_before)).toEqual(["q5"]);
    expect(comparison.only_after[0]).toMatchObject({
      question_id: "q6",
      answering_model: "openai:answerer",
      parsing_model: "openai:judge",
      replicate: 1,
      outcome: "passed",
    });
  });

  test("verdict changes, failures that appear, disappear or change category, each with the failure", () => {
    expect(questionsOf(comparison.pass_to_fail)).toEqual(["q1", "q3"]);
    expect(questionsOf(comparison.fail_to_pass)).toEqual(["q2"]);
    expect(questionsOf(comparison.newly_failing)).toEqual(["q1", "q3"]);
    expect(questionsOf(comparison.no_longer_failing)).toEqual(["q2"]);
    expect(questionsOf(comparison.failure_changed)).toEqual(["q4"]);
    expect(comparison.newly_failing[1]).toMatchObject({
      replicate: 1,
      before: { outcome: "passed", failure_category: null },
      after: { outcome: "failed", failure_category: "rate_limit", failure_group: "retry" },
    });
    expect(comparison.failure_changed[0]?.before.failure_category).toBe("timeout");
    expect(comparison.failure_changed[0]?.after.failure_category).toBe("connection");
  });

  test("the questions concerned say which way they moved", () => {
    expect(comparison.questions_changed).toEqual([
      {
        question_id: "q1",
        question_text: "Text of q1",
        change: "regressed",
        pass_to_fail: 1,
        fail_to_pass: 0,
        newly_failing: 1,
        no_longer_failing: 0,
        before: { total: 2, passed: 2, pass_pct: 100, pass_rate: 1 },
        after: { total: 2, passed: 1, pass_pct: 50, pass_rate: 0.5 },
      },
      expect.objectContaining({ question_id: "q2", change: "improved" }),
      expect.objectContaining({ question_id: "q3", change: "regressed" }),
    ]);
  });

  test("pass rates per run, over matched rows, and per model combination", () => {
    // Passed / (passed + failed): the timeout and rate-limit rows count as failed.
    expect(comparison.before).toEqual({ total: 6, passed: 4, pass_pct: (2 / 3) * 100, pass_rate: 2 / 3 });
    expect(comparison.after).toEqual({ total: 6, passed: 3, pass_pct: 50, pass_rate: 0.5 });
    expect(comparison.matched_before).toEqual({ total: 5, passed: 3, pass_pct: 60, pass_rate: 0.6 });
    expect(comparison.matched_after).toEqual({ total: 5, passed: 2, pass_pct: 40, pass_rate: 0.4 });
    expect(comparison.summary.pass_pct_delta).toBeCloseTo(-20, 12);
    expect(comparison.by_combo["openai:answerer | openai:judge"]?.pass_pct_delta).toBeCloseTo(
      50 - 200 / 3,
      12,
    );
  });

  test("a run compared with itself has no changes", () => {
    const same = compareRuns(before, before);
    expect(same.summary).toMatchObject({ matched: 6, unchanged: 6, questions_changed: 0, pass_pct_delta: 0 });
  });

  test("of rows with the same key in one run, the newest counts", () => {
    const retried = compareRuns(
      [row({ verify: true })],
      [
        row({ verify: true, timestamp: "2026-04-22 09:00:00" }),
        row({ verify: false, timestamp: "2026-04-22 10:00:00" }),
        row({ verify: true, timestamp: "2026-04-22 08:00:00" }),
      ],
    );
    expect(retried.summary).toMatchObject({ rows_after: 1, duplicates_after: 2, pass_to_fail: 1 });
  });

  test("rows judged by different parsing models do not match", () => {
    const result = compareRuns([row({ parsing: "judge" })], [row({ parsing: "judge2" })]);
    expect(result.summary).toMatchObject({ matched: 0, only_before: 1, only_after: 1 });
  });

  test("a row without failure and without template verification is not evaluated", () => {
    expect(rowOutcome(row())).toBe("not_evaluated");
    expect(rowOutcome(row({ verify: false, failure: null }))).toBe("failed");
    expect(rowOutcome(row({ verify: true, failure: { category: "timeout" } }))).toBe("failed");
  });
});

describe.skipIf(!hasConformance)(
  `rows exported by the original (${hasConformance ? "" : SKIP_REASON})`,
  () => {
    test("the timeout row failing for another reason in a later run is a changed failure, not a verdict change", async () => {
      const document = JSON.parse(
        await readFile(conformancePath("export_format/results_export_full.json"), "utf8"),
      ) as { results: Record<string, Record<string, unknown>>[] };
      const [unicode, timeout] = document.results.map((value) => parseVerificationResult(value));
      if (unicode === undefined || timeout === undefined) throw new Error("expected two rows");
      const later = parseVerificationResult({
        ...JSON.parse(JSON.stringify(timeout)),
        metadata: {
          ...timeout.metadata,
          failure: { category: "connection", stage: "generate_answer", reason: "connection reset" },
        },
      });
      const comparison = compareRuns([unicode, timeout], [unicode, later]);
      expect(comparison.summary).toMatchObject({
        matched: 2,
        unchanged: 1,
        failure_changed: 1,
        pass_to_fail: 0,
      });
      expect(comparison.failure_changed[0]).toMatchObject({
        question_id: "q-timeout",
        answering_model: "langchain:gpt-4o",
        // verify_result is true, but a row with a failure is failed, never passed.
        before: { outcome: "failed", failure_category: "timeout", result_id: "b60b6a00a978f080" },
        after: { outcome: "failed", failure_category: "connection" },
      });
    });
  },
);
