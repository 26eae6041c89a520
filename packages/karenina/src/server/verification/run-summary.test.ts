/**
 * The stored summary of a finished run behind `POST /api/v2/verifications/summary`: served while valid, the same
 * bytes as the computed one, and computed again once the run changes; against the real server on 127.0.0.1 and
 * a real SQLite file.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { Benchmark } from "../../benchmark/index.js";
import type { VerificationResult } from "../../results/index.js";
import { rawQuery } from "../../storage/__fixtures__/databases.js";
import { richResult, timedOutResult } from "../../storage/__fixtures__/results.js";
import type { Storage } from "../../storage/index.js";
import { startOpenAiServer } from "../../test-support/openai-server/index.js";
import { startTestServer, type TestServer } from "../__fixtures__/test-server.js";
import {
  apiClient,
  drugCheckpoint,
  drugConfig,
  drugReplies,
  json,
} from "../__fixtures__/verification-jobs.js";

const SUMMARY = "/api/v2/verifications/summary";
const QUESTIONS = ["q1", "q2", "q3"];
let server: TestServer;
let dbFile: string;

/** The response body's text, exactly as sent. */
async function summaryText(body: unknown): Promise<string> {
  const res = await fetch(`${server.url}${SUMMARY}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  return res.text();
}

function rows(from: number, count: number): VerificationResult[] {
  return Array.from({ length: count }, (_, i) =>
    richResult({
      questionId: QUESTIONS[(from + i) % 3] as string,
      replicate: from + i + 1,
      passed: (from + i) % 4 !== 0,
      answeringModel: (from + i) % 2 === 0 ? "gpt-4.1" : "gpt-4.1-mini",
    }),
  );
}

async function storeRun(storage: Storage, name: string, results: VerificationResult[], finish = true) {
  const run = await storage.startRun({ runName: name, benchmarkName: "stored-summary" });
  await storage.saveResults(run.id, results);
  if (finish) await storage.finishRun(run.id, { status: "completed" });
  return run.id;
}

beforeAll(async () => {
  server = await startTestServer();
  dbFile = server.deps.storage.database;
  const bench = Benchmark.create({ name: "stored-summary" });
  for (const id of QUESTIONS) bench.addQuestion(`Question ${id}?`, `Answer ${id}`, { questionId: id });
  await server.deps.storage.saveBenchmark(bench);
});
afterAll(async () => {
  await server.close();
});

describe("POST /api/v2/verifications/summary of one finished run", () => {
  test("the first request stores the summary; later ones serve it, byte for byte the computed one", async () => {
    const storage = server.deps.storage;
    const runId = await storeRun(storage, "stored-once", [...rows(0, 20), timedOutResult("q2")]);
    expect(await storage.loadRunSummary(runId)).toBeNull();
    const cold = await summaryText({ run_names: ["stored-once"] });
    expect(JSON.parse(cold)).toMatchObject({ success: true, result_count: 21 });
    expect(await storage.loadRunSummary(runId)).not.toBeNull();
    expect(await summaryText({ run_names: ["stored-once"] })).toBe(cold);
    expect(await summaryText({ run_ids: [runId] })).toBe(cold);

    // It is the stored one that is served: a marker written into it comes back.
    await rawQuery(
      dbFile,
      `UPDATE run_summaries SET summary_json = '{"marker":true}' WHERE run_id = '${runId}'`,
    );
    expect(JSON.parse(await summaryText({ run_ids: [runId] })).summary).toEqual({ marker: true });

    // A row added to the run: the stored summary is ignored and computed again (and stored again).
    await storage.saveResults(runId, rows(40, 1));
    const grown = JSON.parse(await summaryText({ run_ids: [runId] }));
    expect(grown.result_count).toBe(22);
    expect(grown.summary.marker).toBeUndefined();
    expect(grown.summary.num_results).toBe(22);
    expect((await storage.loadRunSummary(runId))?.resultCount).toBe(22);
    await storage.deleteRunSummary(runId);
    expect(JSON.parse(await summaryText({ run_ids: [runId] }))).toEqual(grown);
  });

  test("a running run, and a name shared by two runs, are computed and nothing is stored", async () => {
    const storage = server.deps.storage;
    const live = await storeRun(storage, "live", rows(0, 5), false);
    expect(JSON.parse(await summaryText({ run_ids: [live] })).result_count).toBe(5);
    expect(await storage.loadRunSummary(live)).toBeNull();

    const first = await storeRun(storage, "twice", rows(0, 4));
    const second = await storeRun(storage, "twice", rows(4, 3));
    const both = JSON.parse(await summaryText({ run_names: ["twice"] }));
    expect(both.result_count).toBe(7);
    expect(await storage.loadRunSummary(first)).toBeNull();
    expect(await storage.loadRunSummary(second)).toBeNull();
    // Two references to one run count its rows twice, as before: never the stored summary of one.
    const doubled = JSON.parse(await summaryText({ run_ids: [first, first] }));
    expect(doubled.result_count).toBe(8);
  });
});

describe("a verification job that finishes", () => {
  test("stores its run's summary after job_completed, equal to the computed one", async () => {
    const llm = await startOpenAiServer(drugReplies());
    try {
      const api = apiClient(server.url, server.token);
      const res = await api.post("/api/v2/verifications", {
        config: drugConfig(llm.baseURL),
        checkpoint: drugCheckpoint(3, "precomputed"),
        run_name: "precomputed",
      });
      expect(res.status).toBe(202);
      const { job_id } = (await json(res)) as { job_id: string };
      await api.waitForStatus(job_id, "completed");
      const storage = server.deps.storage;
      const deadline = Date.now() + 10_000;
      while ((await storage.loadRunSummary(job_id)) === null && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 20));
      const stored = await storage.loadRunSummary(job_id);
      expect(stored?.resultCount).toBe(3);
      const served = await summaryText({ job_ids: [job_id] });
      await storage.deleteRunSummary(job_id);
      expect(await summaryText({ job_ids: [job_id] })).toBe(served);
      expect(JSON.parse(served).summary).toEqual(stored?.summary);
    } finally {
      await llm.close();
    }
  });
});
