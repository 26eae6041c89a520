import { describe, expect, test } from "vitest";
import {
  createSummaryAccumulator,
  SUMMARY_FORMAT_VERSION,
  summarizeResults,
  type VerificationResult,
} from "../results/index.js";
import { rawQuery, storagesPerTest, storageTargets } from "./__fixtures__/databases.js";
import { mixedResults, richResult, threeQuestionBenchmark } from "./__fixtures__/results.js";
import type { Storage } from "./index.js";

const bench = threeQuestionBenchmark;
const results = () => mixedResults(12);

/** The summary of a run as the server computes it: from its stored digests, page by page. */
async function computedFromDigests(storage: Storage, runId: string) {
  const summary = createSummaryAccumulator();
  for await (const page of storage.readResultDigests({ runId }, 5)) summary.add(page);
  return { summary: summary.finish(), count: summary.count };
}

/** What a summary becomes on the wire (the server answers JSON). */
const asJson = (value: unknown) => JSON.parse(JSON.stringify(value));

describe.each(storageTargets())("stored run summaries on $name", (target) => {
  const stores = storagesPerTest(target);
  const open = stores.open;

  /** A finished run holding `rows`. */
  async function finishedRun(storage: Storage, rows: readonly VerificationResult[], name = "nightly") {
    await storage.saveBenchmark(bench());
    const run = await storage.startRun({ runName: name, benchmarkName: "bench" });
    await storage.saveResults(run.id, rows);
    await storage.finishRun(run.id, { status: "completed" });
    return run.id;
  }

  test("a stored summary comes back equal to the one computed from the run's rows", async () => {
    const storage = await open();
    const runId = await finishedRun(storage, results());
    const computed = await computedFromDigests(storage, runId);
    expect(await storage.loadRunSummary(runId)).toBeNull();
    expect(await storage.saveRunSummary(runId, computed.summary, computed.count)).toBe(true);
    const stored = await storage.loadRunSummary(runId);
    expect(stored?.resultCount).toBe(13);
    expect(stored?.summary).toEqual(asJson(computed.summary));
    expect(JSON.stringify(stored?.summary)).toBe(JSON.stringify(computed.summary));
    expect(stored?.summary).toEqual(asJson(summarizeResults(results())));
  });

  test("a result added, deleted or replaced after the summary was stored makes it stale", async () => {
    const storage = await open();
    const runId = await finishedRun(storage, results());
    const save = async () => {
      const { summary, count } = await computedFromDigests(storage, runId);
      expect(await storage.saveRunSummary(runId, summary, count)).toBe(true);
      expect(await storage.loadRunSummary(runId)).not.toBeNull();
    };
    await save();
    await storage.saveResults(runId, [richResult({ questionId: "q1", replicate: 99, passed: false })]);
    expect(await storage.loadRunSummary(runId)).toBeNull();

    await save();
    // Same count, but the last row is another: one deleted, one added (as an outside tool would).
    await rawQuery(
      stores.url,
      `DELETE FROM verification_results WHERE result_id = '${results()[0]?.metadata.result_id}'`,
    );
    await storage.saveResults(runId, [richResult({ questionId: "q2", replicate: 100 })]);
    expect(await storage.loadRunSummary(runId)).toBeNull();

    await save();
    // Same count and row ids: a result replaced in place (saved again under its result id).
    const [first] = results().slice(1);
    await storage.saveResults(runId, [{ ...(first as VerificationResult), template: null }]);
    expect(await storage.loadRunSummary(runId)).toBeNull();
  });

  test("a summary of another format version is not read", async () => {
    const storage = await open();
    const runId = await finishedRun(storage, results());
    const { summary, count } = await computedFromDigests(storage, runId);
    await storage.saveRunSummary(runId, summary, count);
    await rawQuery(stores.url, `UPDATE run_summaries SET format_version = ${SUMMARY_FORMAT_VERSION - 1}`);
    expect(await storage.loadRunSummary(runId)).toBeNull();
  });

  test("nothing is stored for a run still running, or for a count the run does not hold", async () => {
    const storage = await open();
    await storage.saveBenchmark(bench());
    const run = await storage.startRun({ runName: "live", benchmarkName: "bench" });
    await storage.saveResults(run.id, results());
    const { summary, count } = await computedFromDigests(storage, run.id);
    expect(await storage.saveRunSummary(run.id, summary, count)).toBe(false);
    await storage.finishRun(run.id, { status: "cancelled" });
    expect(await storage.saveRunSummary(run.id, summary, count + 1)).toBe(false);
    expect(await storage.loadRunSummary(run.id)).toBeNull();
    expect(await storage.saveRunSummary(run.id, summary, count)).toBe(true);
    expect(await storage.loadRunSummary(run.id)).not.toBeNull();
    // Resumed: running again, the stored summary no longer holds.
    await storage.startRun({ runId: run.id, runName: "live", benchmarkName: "bench" });
    expect(await storage.loadRunSummary(run.id)).toBeNull();
  });

  test("an empty finished run's summary is stored too", async () => {
    const storage = await open();
    const runId = await finishedRun(storage, []);
    const { summary, count } = await computedFromDigests(storage, runId);
    expect(await storage.saveRunSummary(runId, summary, count)).toBe(true);
    expect((await storage.loadRunSummary(runId))?.summary).toEqual(asJson(summary));
  });

  test("a results import stores its run's summary, equal to the computed one", async () => {
    const storage = await open();
    await storage.saveBenchmark(bench());
    const imported = await storage.importVerificationResults(
      { format_version: "2.2", metadata: { job_id: "job-1" }, results: results() },
      { benchmarkName: "bench" },
    );
    const stored = await storage.loadRunSummary(imported.runId);
    const computed = await computedFromDigests(storage, imported.runId);
    expect(stored?.resultCount).toBe(computed.count);
    expect(JSON.stringify(stored?.summary)).toBe(JSON.stringify(computed.summary));
  });

  test("deleting a run deletes its stored summary; deleteRunSummary deletes it alone", async () => {
    const storage = await open();
    const runId = await finishedRun(storage, results());
    const { summary, count } = await computedFromDigests(storage, runId);
    await storage.saveRunSummary(runId, summary, count);
    expect(await storage.deleteRunSummary(runId)).toBe(true);
    expect(await storage.loadRunSummary(runId)).toBeNull();
    expect(await storage.deleteRunSummary(runId)).toBe(false);
    await storage.saveRunSummary(runId, summary, count);
    await storage.deleteRun(runId);
    expect(await rawQuery(stores.url, "SELECT run_id FROM run_summaries")).toEqual([]);
  });
});
