import { describe, expect, test } from "vitest";
import { Benchmark } from "../benchmark/index.js";
import { rawQuery, storagesPerTest, storageTargets } from "./__fixtures__/databases.js";
import { manyResults } from "./__fixtures__/results.js";

/** A benchmark whose questions have the given ids. */
function benchmarkWith(name: string, ids: readonly string[]): Benchmark {
  const bench = Benchmark.create({ name, version: "1.0.0" });
  for (const id of ids) bench.addQuestion(`Question ${id}?`, `Answer ${id}`, { questionId: id });
  return bench;
}

/** A results export (format 2.2) of `count` results of questions `ids`. */
const resultsExport = (ids: readonly string[], count: number) => ({
  format_version: "2.2",
  metadata: { job_id: "job-1" },
  results: manyResults(ids, count),
});

describe.each(storageTargets())("stored runs on $name", (target) => {
  const stores = storagesPerTest(target);
  const open = stores.open;

  test("runs are counted and paged in SQL: pages of the newest-first order, never overlapping", async () => {
    const storage = await open();
    await storage.saveBenchmark(benchmarkWith("alpha", ["q1"]));
    await storage.saveBenchmark(benchmarkWith("beta", ["q1"]));
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      const run = await storage.startRun({ runName: `r${i}`, benchmarkName: i < 5 ? "alpha" : "beta" });
      ids.push(run.id);
    }
    await storage.finishRun(ids[1] as string, { status: "failed" });
    expect(await storage.countRuns()).toBe(7);
    expect(await storage.countRuns({ benchmarkName: "alpha" })).toBe(5);
    expect(await storage.countRuns({ benchmarkName: "alpha", status: "running" })).toBe(4);
    expect(await storage.countRuns({ runName: "r6" })).toBe(1);
    expect(await storage.countRuns({ benchmarkName: "nope" })).toBe(0);

    const all = (await storage.listRuns({ benchmarkName: "alpha" })).map((run) => run.id);
    expect(all).toHaveLength(5);
    const pages: string[][] = [];
    for (let offset = 0; offset < 6; offset += 2) {
      pages.push((await storage.listRuns({ benchmarkName: "alpha", limit: 2, offset })).map((run) => run.id));
    }
    expect(pages.map((page) => page.length)).toEqual([2, 2, 1]);
    expect(pages.flat()).toEqual(all);
    expect(await storage.listRuns({ limit: 2, offset: 7 })).toEqual([]);
  });

  test("a run of a verification is not imported; a run of a results import is", async () => {
    const storage = await open();
    await storage.saveBenchmark(benchmarkWith("bench", ["q1", "q2"]));
    const ran = await storage.startRun({ runName: "ran", benchmarkName: "bench" });
    expect(ran.isImported).toBe(false);
    await storage.finishRun(ran.id, { status: "completed" });
    expect((await storage.getRun(ran.id))?.isImported).toBe(false);
    const imported = await storage.importVerificationResults(resultsExport(["q1", "q2"], 3), {
      benchmarkName: "bench",
    });
    expect(await storage.getRun(imported.runId)).toMatchObject({ isImported: true, processedCount: 3 });
    const listed = await storage.listRuns({ benchmarkName: "bench" });
    expect(Object.fromEntries(listed.map((run) => [run.id, run.isImported]))).toEqual({
      [ran.id]: false,
      [imported.runId]: true,
    });
  });

  test("upgrading a version 7 database flags the runs it imported (those with an import record)", async () => {
    const first = await open();
    await first.saveBenchmark(benchmarkWith("bench", ["q1"]));
    const ran = await first.startRun({ runName: "ran", benchmarkName: "bench" });
    const imported = await first.importVerificationResults(resultsExport(["q1"], 2), {
      benchmarkName: "bench",
    });
    await first.close();
    await rawQuery(stores.url, "ALTER TABLE verification_runs DROP COLUMN is_imported");
    await rawQuery(stores.url, "DELETE FROM karenina_migrations WHERE name >= '0008_run_imported_flag'");
    await rawQuery(stores.url, "DROP TABLE result_table_rows");
    await rawQuery(stores.url, "DROP TABLE run_summaries");
    await rawQuery(stores.url, "DROP TABLE benchmark_scenarios");
    const upgraded = await open(stores.url);
    expect((await upgraded.getRun(ran.id))?.isImported).toBe(false);
    expect((await upgraded.getRun(imported.runId))?.isImported).toBe(true);
    const names = await rawQuery(stores.url, "SELECT name FROM karenina_migrations ORDER BY name");
    expect(names).toContainEqual({ name: "0008_run_imported_flag" });
  });
});
