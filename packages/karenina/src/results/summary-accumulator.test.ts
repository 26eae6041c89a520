import { describe, expect, test } from "vitest";
import { mixedRows } from "./__fixtures__/mixed-rows.js";
import {
  ComparisonSide,
  compareRuns,
  compareSides,
  createSummaryAccumulator,
  resultDigest,
  type SummaryOptions,
  summarizeResults,
  type VerificationResult,
} from "./index.js";

const PAGE_SIZES = [1, 2, 3, 7, 64, 299, 300, 1000];

const prices: SummaryOptions["prices"] = (model) =>
  model === "gpt"
    ? { input_per_million: 2.5, output_per_million: 10.1 }
    : model === "judge"
      ? { input_per_million: 0.3, output_per_million: 1.7 }
      : undefined;

function pages<T>(rows: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < rows.length; start += size) out.push(rows.slice(start, start + size));
  return out;
}

describe("createSummaryAccumulator", () => {
  test("summarising in pages of any size gives, byte for byte, the summary of all the rows at once", () => {
    for (const seed of [0, 1, 2, 5]) {
      const rows = mixedRows(seed);
      for (const input of [rows, rows.map(resultDigest)]) {
        for (const options of [{}, { prices }]) {
          const whole = JSON.stringify(summarizeResults(input, options));
          for (const size of PAGE_SIZES) {
            const summary = createSummaryAccumulator(options);
            for (const page of pages(input, size)) summary.add(page);
            expect(summary.count).toBe(input.length);
            expect(JSON.stringify(summary.finish())).toBe(whole);
          }
        }
      }
    }
  });

  test("finish part-way gives the summary of the rows so far, and the accumulator goes on", () => {
    const rows = mixedRows(3);
    const summary = createSummaryAccumulator({ prices });
    summary.add(rows.slice(0, 120));
    expect(JSON.stringify(summary.finish())).toBe(
      JSON.stringify(summarizeResults(rows.slice(0, 120), { prices })),
    );
    summary.add(rows.slice(120));
    expect(JSON.stringify(summary.finish())).toBe(JSON.stringify(summarizeResults(rows, { prices })));
  });

  test("nothing added gives the summary of no rows", () => {
    expect(createSummaryAccumulator().finish()).toEqual(summarizeResults([]));
  });
});

describe("ComparisonSide", () => {
  test("comparing sides fed in pages of any size gives, byte for byte, compareRuns of the whole runs", () => {
    for (const seed of [0, 1, 4]) {
      const before = mixedRows(seed).map(resultDigest);
      // Another run of the same tasks (same keys, other verdicts), plus duplicate keys and rows of one run only.
      const after: VerificationResult[] = [...mixedRows(seed + 6), ...mixedRows(seed + 12).slice(0, 40)];
      const whole = JSON.stringify(compareRuns(before, after));
      expect(JSON.parse(whole).summary.matched).toBeGreaterThan(0);
      for (const size of PAGE_SIZES) {
        const a = new ComparisonSide();
        const b = new ComparisonSide();
        for (const page of pages(before, size)) a.add(page);
        for (const page of pages(after, size)) b.add(page);
        expect(JSON.stringify(compareSides(a, b))).toBe(whole);
      }
    }
  });
});
