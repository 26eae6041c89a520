import { describe, expect, test } from "vitest";
import {
  digestJson,
  RESULT_DIGEST_VERSION,
  resultDigest,
  summarizeResults,
  type VerificationResult,
} from "../results/index.js";
import { rawQuery, storagesPerTest, storageTargets } from "./__fixtures__/databases.js";
import { mixedResults, richResult, threeQuestionBenchmark } from "./__fixtures__/results.js";
import type { Storage } from "./index.js";

const bench = threeQuestionBenchmark;
const results = () => mixedResults(25);

/** Every digest of a run, a page of `size` at a time. */
async function allDigests(storage: Storage, runId: string, size: number): Promise<VerificationResult[]> {
  const digests: VerificationResult[] = [];
  for (let after: number | null = 0; after !== null; ) {
    const page = await storage.loadResultDigestPage({ runId, limit: size }, after);
    digests.push(...page.digests);
    after = page.after;
  }
  return digests;
}

const asStored = (rows: readonly VerificationResult[]) => JSON.parse(JSON.stringify(rows.map(resultDigest)));

/** Takes a database back to schema version 6: digests in two columns of the results rows, none stored. */
async function backToVersion6(url: string): Promise<void> {
  await rawQuery(url, "DROP TABLE result_digests");
  await rawQuery(url, "DROP TABLE run_summaries");
  await rawQuery(url, "DROP TABLE result_table_rows");
  await rawQuery(url, "DROP TABLE benchmark_scenarios");
  await rawQuery(url, "ALTER TABLE verification_results ADD COLUMN digest_json text");
  await rawQuery(url, "ALTER TABLE verification_results ADD COLUMN digest_version integer");
  await rawQuery(url, "ALTER TABLE verification_runs DROP COLUMN is_imported");
  await rawQuery(url, "DELETE FROM karenina_migrations WHERE name >= '0007_result_digest_table'");
}

describe.each(storageTargets())("result digests on $name", (target) => {
  const stores = storagesPerTest(target);
  const open = stores.open;

  async function stored(): Promise<{ storage: Storage; runId: string; rows: VerificationResult[] }> {
    const storage = await open();
    await storage.saveBenchmark(bench());
    const run = await storage.startRun({ runName: "nightly", benchmarkName: "bench" });
    const rows = results();
    await storage.saveResults(run.id, rows);
    return { storage, runId: run.id, rows };
  }

  test("saved in small batches without recounting (a fleet worker's saves), results, digests and table rows are stored once; finishRun recounts", async () => {
    const storage = await open();
    await storage.saveBenchmark(bench());
    const run = await storage.startRun({ runName: "fleet", benchmarkName: "bench" });
    const rows = results();
    const fast = { recount: false, checkQuestions: false } as const;
    for (let at = 0; at < rows.length; at += 4)
      await storage.saveResults(run.id, rows.slice(at, at + 4), fast);
    // Delivered again: the same result_ids replace their rows.
    await storage.saveResults(run.id, rows.slice(0, 6), fast);
    expect(await storage.countResults({ runId: run.id })).toBe(rows.length);
    expect(await storage.loadResults({ runId: run.id })).toEqual(JSON.parse(JSON.stringify(rows)));
    expect(await allDigests(storage, run.id, 10)).toEqual(asStored(rows));
    expect(await storage.readResultTableRows([run.id])).toHaveLength(rows.length);
    expect(await storage.countResultTableRows([run.id])).toEqual({
      results: rows.length,
      tableRows: rows.length,
    });
    expect((await storage.getRun(run.id))?.processedCount).toBe(0);
    const finished = await storage.finishRun(run.id, { status: "completed" });
    expect(finished.processedCount).toBe(rows.length);
  });

  test("every saved row's digest comes back in saving order, by pages that neither repeat nor skip", async () => {
    const { storage, runId, rows } = await stored();
    for (const size of [1, 7, 26, 100])
      expect(await allDigests(storage, runId, size)).toEqual(asStored(rows));
    expect(summarizeResults(await allDigests(storage, runId, 10))).toEqual(summarizeResults(rows));
  });

  test("a page by offset, and the query's filters, as loadResults has them", async () => {
    const { storage, runId, rows } = await stored();
    const page = await storage.loadResultDigestPage({ runId, limit: 5, offset: 10 });
    expect(page.digests).toEqual(asStored(rows.slice(10, 15)));
    const passed = await storage.loadResultDigestPage({ runId, passed: true });
    expect(passed.digests).toEqual(asStored(await storage.loadResults({ runId, passed: true })));
    expect(passed.after).toBeNull();
  });

  test("a row saved again replaces its digest with the new result's", async () => {
    const { storage, runId, rows } = await stored();
    const first = rows[1] as VerificationResult;
    const failed = richResult({ questionId: first.metadata.question_id, replicate: 2, passed: false });
    expect(failed.metadata.result_id).toBe(first.metadata.result_id);
    await storage.saveResults(runId, [failed]);
    const digests = await allDigests(storage, runId, 100);
    expect(digests[1]).toEqual(asStored([failed])[0]);
  });

  test("a row without a current digest is read whole and validated; a broken one is reported by its row", async () => {
    const { storage, runId, rows } = await stored();
    await rawQuery(stores.url, "DELETE FROM result_digests WHERE result_pk % 2 = 0");
    await rawQuery(
      stores.url,
      "UPDATE result_digests SET digest_json = '{}', digest_version = 0 WHERE result_pk % 3 = 0",
    );
    expect(await allDigests(storage, runId, 4)).toEqual(asStored(rows));
    await rawQuery(
      stores.url,
      "UPDATE verification_results SET result_json = '{\"metadata\": {}}' WHERE id = 2",
    );
    await expect(allDigests(storage, runId, 100)).rejects.toThrow(/verification_results row 2\b.*metadata/s);
  });

  test("upgrading a version 4 database gives its stored rows their digests", async () => {
    const { storage, runId, rows } = await stored();
    await storage.close();
    await rawQuery(
      stores.url,
      "UPDATE verification_results SET result_json = '{\"metadata\": {}}' WHERE id = 3",
    );
    await rawQuery(stores.url, "DROP TABLE result_digests");
    await rawQuery(stores.url, "DROP TABLE run_summaries");
    await rawQuery(stores.url, "DROP TABLE result_table_rows");
    await rawQuery(stores.url, "DROP TABLE benchmark_scenarios");
    await rawQuery(stores.url, "ALTER TABLE verification_runs DROP COLUMN is_imported");
    await rawQuery(stores.url, "DELETE FROM karenina_migrations WHERE name >= '0005_result_digests'");
    const upgraded = await open(stores.url);
    const filled = await rawQuery(
      stores.url,
      `SELECT result_pk FROM result_digests WHERE digest_version = ${RESULT_DIGEST_VERSION} ORDER BY result_pk`,
    );
    // Every row but the one that no longer validates (it keeps none, and readers report it).
    expect(filled.map((row) => Number(row.result_pk))).toEqual(
      rows.map((_, index) => index + 1).filter((id) => id !== 3),
    );
    const [digest] = (await upgraded.loadResultDigestPage({ runId, limit: 1 })).digests;
    expect(digest).toEqual(asStored(rows.slice(0, 1))[0]);
    await expect(allDigests(upgraded, runId, 100)).rejects.toThrow(/verification_results row 3\b/);
  });

  test("upgrading a version 5 database rewrites its version 1 digests compactly, in ASCII", async () => {
    const { storage, runId, rows } = await stored();
    await storage.close();
    await backToVersion6(stores.url);
    // What version 1 wrote is not read any more: any text under the old version number stands for it.
    await rawQuery(
      stores.url,
      `UPDATE verification_results SET digest_json = '{"v1": "靶点"}', digest_version = 1`,
    );
    await rawQuery(stores.url, "DELETE FROM karenina_migrations WHERE name >= '0006_compact_result_digests'");
    const upgraded = await open(stores.url);
    const digests = await rawQuery(
      stores.url,
      "SELECT digest_json, digest_version FROM result_digests ORDER BY result_pk",
    );
    expect(digests.map((row) => [row.digest_json, Number(row.digest_version)])).toEqual(
      rows.map((row) => [digestJson(row), RESULT_DIGEST_VERSION]),
    );
    expect(digests.every((row) => /^[\x20-\x7e]*$/.test(String(row.digest_json)))).toBe(true);
    expect(await allDigests(upgraded, runId, 7)).toEqual(asStored(rows));
  });
  test("upgrading a version 6 database moves its current digests to their own table and computes the rest", async () => {
    const { storage, runId, rows } = await stored();
    await storage.close();
    await backToVersion6(stores.url);
    // A current digest is moved as it is (the marker proves it was not recomputed); an old one is recomputed.
    await rawQuery(
      stores.url,
      `UPDATE verification_results SET digest_json = '{"moved": true}', digest_version = ${RESULT_DIGEST_VERSION} WHERE id = 1`,
    );
    await rawQuery(
      stores.url,
      "UPDATE verification_results SET digest_json = '{}', digest_version = 1 WHERE id > 1",
    );
    const upgraded = await open(stores.url);
    const digests = await rawQuery(
      stores.url,
      "SELECT result_pk, digest_json FROM result_digests ORDER BY result_pk",
    );
    expect(digests.map((row) => [Number(row.result_pk), row.digest_json])).toEqual(
      rows.map((row, index) => [index + 1, index === 0 ? '{"moved": true}' : digestJson(row)]),
    );
    const columns = await rawQuery(stores.url, "SELECT * FROM verification_results WHERE id = 1");
    expect(Object.keys(columns[0] ?? {})).not.toContain("digest_json");
    expect((await allDigests(upgraded, runId, 100)).slice(1)).toEqual(asStored(rows.slice(1)));
  });

  test("deleting a run deletes its rows' digests", async () => {
    const { storage, runId } = await stored();
    const other = await storage.startRun({ runName: "other", benchmarkName: "bench" });
    await storage.saveResults(other.id, results().slice(0, 3));
    expect(await storage.deleteRun(runId)).toBe(true);
    const left = await rawQuery(stores.url, "SELECT COUNT(*) AS n FROM result_digests");
    expect(Number(left[0]?.n)).toBe(3);
    expect(await allDigests(storage, other.id, 10)).toEqual(asStored(results().slice(0, 3)));
  });
  test("readResultDigests gives every digest in saving order, the whole rows of rows without one, and stops on break", async () => {
    const { storage, runId, rows } = await stored();
    await rawQuery(stores.url, "DELETE FROM result_digests WHERE result_pk % 5 = 0");
    const read = async (pageSize: number) => {
      const pages: VerificationResult[][] = [];
      for await (const page of storage.readResultDigests({ runId, limit: 1, offset: 3 }, pageSize))
        pages.push(page);
      return pages;
    };
    for (const size of [1, 7, 26, 100]) {
      const pages = await read(size);
      expect(pages.map((page) => page.length)).toEqual(
        Array.from({ length: Math.ceil(rows.length / size) }, (_, i) =>
          Math.min(size, rows.length - i * size),
        ),
      );
      expect(pages.flat()).toEqual(asStored(rows));
    }
    expect(summarizeResults((await read(4)).flat())).toEqual(summarizeResults(rows));
    // By run name, and stopping after the first page (the reader thread is ended, nothing hangs).
    for await (const page of storage.readResultDigests({ runName: "nightly" }, 5)) {
      expect(page).toEqual(asStored(rows.slice(0, 5)));
      break;
    }
    const other = await storage.startRun({ runName: "nightly", benchmarkName: "bench" });
    await storage.saveResults(other.id, rows.slice(0, 2));
    const both: VerificationResult[] = [];
    for await (const page of storage.readResultDigests({ runName: "nightly" }, 10)) both.push(...page);
    expect(both).toEqual(asStored([...rows, ...rows.slice(0, 2)]));
  });

  test("readResultDigests reports a row that does not validate, naming it", async () => {
    const { storage, runId } = await stored();
    await rawQuery(stores.url, "DELETE FROM result_digests WHERE result_pk = 4");
    await rawQuery(
      stores.url,
      "UPDATE verification_results SET result_json = '{\"metadata\": {}}' WHERE id = 4",
    );
    const all = async () => {
      for await (const _page of storage.readResultDigests({ runId }, 3));
    };
    await expect(all()).rejects.toThrow(/verification_results row 4\b.*metadata/s);
  });
});
