import { describe, expect, test } from "vitest";
import { Benchmark } from "../benchmark/index.js";
import { resultTableRow } from "../result-table/index.js";
import { rawQuery, storagesPerTest, storageTargets } from "./__fixtures__/databases.js";
import { richResult, timedOutResult } from "./__fixtures__/results.js";
import type { Storage } from "./index.js";

function benchmarkWith(ids: readonly string[]): Benchmark {
  const bench = Benchmark.create({ name: "alpha", version: "1.0.0" });
  for (const id of ids) bench.addQuestion(`Question ${id}?`, `Answer ${id}`, { questionId: id });
  return bench;
}

describe.each(storageTargets())("results-table rows on $name", (target) => {
  const stores = storagesPerTest(target);
  const open = stores.open;

  async function storedRun(storage: Storage) {
    await storage.saveBenchmark(benchmarkWith(["q1", "q2", "q3"]));
    const run = await storage.startRun({ runName: "nightly", benchmarkName: "alpha" });
    const results = [
      richResult({ questionId: "q1" }),
      richResult({ questionId: "q2", passed: false }),
      timedOutResult("q3"),
    ];
    await storage.saveResults(run.id, results);
    return { run, results };
  }

  test("saving results writes their table rows, read back in saving order", async () => {
    const storage = await open();
    const { run, results } = await storedRun(storage);
    expect(await storage.countResultTableRows([run.id])).toEqual({ results: 3, tableRows: 3 });
    expect(await storage.readResultTableRows([run.id])).toEqual(results.map(resultTableRow));
    expect(await storage.readResultTableRows(["no-such-run"])).toEqual([]);
  });

  test("rows saved without table rows (an older karenina) get theirs on first read, and keep them", async () => {
    const storage = await open();
    const { run, results } = await storedRun(storage);
    await rawQuery(stores.url, "DELETE FROM result_table_rows");
    await rawQuery(stores.url, "UPDATE result_table_rows SET row_version = 0");
    expect(await storage.countResultTableRows([run.id])).toEqual({ results: 3, tableRows: 0 });
    expect(await storage.readResultTableRows([run.id])).toEqual(results.map(resultTableRow));
    expect(await storage.countResultTableRows([run.id])).toEqual({ results: 3, tableRows: 3 });
  });

  test("a table row of another version is computed again", async () => {
    const storage = await open();
    const { run, results } = await storedRun(storage);
    await rawQuery(stores.url, `UPDATE result_table_rows SET row_version = 0, row_json = '{"stale":true}'`);
    expect(await storage.readResultTableRows([run.id])).toEqual(results.map(resultTableRow));
  });

  test("a replaced result replaces its table row", async () => {
    const storage = await open();
    const { run } = await storedRun(storage);
    const replaced = richResult({ questionId: "q2", passed: false });
    replaced.metadata.question_text = "Reworded question";
    await storage.saveResults(run.id, [replaced]);
    const rows = await storage.readResultTableRows([run.id]);
    expect(rows.map((row) => row.question_text)[1]).toBe("Reworded question");
    expect(rows).toHaveLength(3);
  });

  test("deleting a run deletes its table rows", async () => {
    const storage = await open();
    const { run } = await storedRun(storage);
    await storage.deleteRun(run.id);
    expect(await rawQuery(stores.url, "SELECT COUNT(*) AS n FROM result_table_rows")).toEqual([
      { n: stores.url.startsWith("postgres") ? "0" : 0 },
    ]);
  });
});
