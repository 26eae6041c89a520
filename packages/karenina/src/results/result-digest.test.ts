import { describe, expect, test } from "vitest";
import { richResult } from "../storage/__fixtures__/results.js";
import { mixedRows } from "./__fixtures__/mixed-rows.js";
import { row } from "./__fixtures__/rows.js";
import {
  compareRuns,
  digestJson,
  passAtK,
  RESULT_DIGEST_VERSION,
  resultDigest,
  summarizeResults,
  type VerificationResult,
} from "./index.js";

/** A digest as the database gives it back: its JSON text, parsed. */
const stored = (result: VerificationResult) => JSON.parse(digestJson(result)) as VerificationResult;

describe("resultDigest", () => {
  test("summarizeResults gives the same summary, byte for byte, on the stored digests as on the rows", () => {
    for (const seed of [1, 2, 3]) {
      const rows = mixedRows(seed);
      expect(rows.some((r) => r.deep_judgment?.deep_judgment_performed)).toBe(true);
      const prices = (model: string) =>
        model === "gpt" ? { input_per_million: 2, output_per_million: 8 } : undefined;
      for (const options of [{}, { prices }]) {
        const expected = summarizeResults(rows, options);
        const actual = summarizeResults(rows.map(stored), options);
        expect(actual).toEqual(expected);
        expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
      }
    }
  });

  test("compareRuns gives the same comparison on the stored digests as on the rows", () => {
    const before = mixedRows(1);
    const after = mixedRows(2);
    const expected = compareRuns(before, after);
    expect(expected.summary.matched).toBeGreaterThan(0);
    expect(expected.pass_to_fail.length + expected.newly_failing.length).toBeGreaterThan(0);
    expect(JSON.stringify(compareRuns(before.map(stored), after.map(stored)))).toBe(JSON.stringify(expected));
  });

  test("its stored JSON is all ASCII and parses back to the digest, non-ASCII text included", () => {
    const rows = [
      ...mixedRows(3),
      richResult({ questionId: "q-unicode", questionText: "靶点是什么？ naïve \u{1F600}" }),
    ];
    for (const result of rows) {
      const text = digestJson(result);
      expect(/[^\p{ASCII}]/u.test(text)).toBe(false);
      expect(JSON.parse(text)).toEqual(resultDigest(result));
    }
  });

  test("leaves out the traces and provider details, and is a fraction of the row's size", () => {
    const rich = richResult({ questionId: "q1", replicate: 1 });
    const digest = resultDigest(rich);
    expect(digest.template?.raw_llm_response).toBeUndefined();
    expect(digest.template?.usage_metadata?.answer_generation).toEqual({
      input_tokens: 120,
      output_tokens: 40,
      total_tokens: 160,
      model: "gpt-4.1-mini",
    });
    expect(digest.rubric?.metric_trait_confusion_lists).toEqual({ coverage: null });
    expect(JSON.stringify(digest).length).toBeLessThan(JSON.stringify(rich).length / 2);
    expect(RESULT_DIGEST_VERSION).toBe(2);
  });

  test("pass@k per question equals passAtK for every k, also with hundreds of replicates", () => {
    for (const [n, c] of [
      [1, 0],
      [1, 1],
      [7, 3],
      [40, 0],
      [40, 39],
      [300, 120],
    ] as const) {
      const rows = Array.from({ length: n }, (_, i) =>
        row({ question: "q1", replicate: i + 1, verify: i < c }),
      );
      const estimates = summarizeResults(rows).pass_at_k["openai:answerer | openai:judge"]?.by_question.q1;
      expect(estimates?.n).toBe(n);
      for (let k = 1; k <= n; k++) expect(estimates?.pass_at_k[k]).toBe(passAtK(n, c, k));
    }
  });
});
