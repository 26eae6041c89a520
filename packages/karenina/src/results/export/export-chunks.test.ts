import { describe, expect, test } from "vitest";
import { richResult, timedOutResult } from "../../storage/__fixtures__/results.js";
import type { VerificationResult } from "../verification-result.js";
import { exportResultsCsv, exportResultsCsvChunks } from "./csv-export.js";
import { exportResultsJson, exportResultsJsonChunks } from "./json-export.js";

// The streamed exports (the results table's download) must be the files the whole-array exports write.

const results: VerificationResult[] = [
  richResult({ questionId: "q1", replicate: 1 }),
  richResult({ questionId: "q2", passed: false, replicate: 2, answeringModel: "gpt-5" }),
  timedOutResult("q3"),
];
const metadata = { job_id: "job-1", export_timestamp: "2026-04-21 12:00:00 UTC", karenina_version: "0.1.0" };

/** Rows as an async source readable several times, counting the reads. */
function source(rows: readonly VerificationResult[]) {
  const reads = { count: 0 };
  const read = async function* () {
    reads.count += 1;
    yield* rows;
  };
  return { read, reads };
}

async function joined(chunks: AsyncIterable<string>): Promise<{ text: string; pieces: number }> {
  let text = "";
  let pieces = 0;
  for await (const chunk of chunks) {
    text += chunk;
    pieces += 1;
  }
  return { text, pieces };
}

describe("the streamed exports", () => {
  test("JSON: the same bytes as exportResultsJson, a piece per row", async () => {
    const { read, reads } = source(results);
    const out = await joined(exportResultsJsonChunks(read, { metadata }));
    expect(out.text).toBe(exportResultsJson(results, { metadata }));
    expect(out.pieces).toBe(results.length + 3);
    expect(reads.count).toBe(2);
  });

  test("CSV: the same bytes as exportResultsCsv, a line per row; no rows → the short header", async () => {
    const { read } = source(results);
    const out = await joined(exportResultsCsvChunks(read, { metadata }));
    expect(out.text).toBe(exportResultsCsv(results, { metadata }));
    expect(out.pieces).toBe(results.length + 1);
    const empty = await joined(exportResultsCsvChunks(source([]).read, { metadata }));
    expect(empty.text).toBe(exportResultsCsv([], { metadata }));
    const none = await joined(exportResultsJsonChunks(source([]).read, { metadata }));
    expect(none.text).toBe(exportResultsJson([], { metadata }));
  });
});
