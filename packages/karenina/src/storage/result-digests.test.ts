import { afterEach, describe, expect, test } from "vitest";
import { Benchmark } from "../benchmark/index.js";
import {
  digestJson,
  RESULT_DIGEST_VERSION,
  resultDigest,
  summarizeResults,
  type VerificationResult,
} from "../results/index.js";
import { rawQuery, storageTargets } from "./__fixtures__/databases.js";
import { richResult, timedOutResult } from "./__fixtures__/results.js";
import { openStorage, type Storage } from "./index.js";

const QUESTIONS = ["q1", "q2", "q3"];

function bench(): Benchmark {
  const b = Benchmark.create({ name: "bench", version: "1.0.0" });
  for (const id of QUESTIONS) b.addQuestion(`Question ${id}?`, `Answer ${id}`, { questionId: id });
  return b;
}

/** Passes, template failures and a timed-out row, with replicates. */
function results(): VerificationResult[] {
  const rows: VerificationResult[] = [];
  for (let i = 0; i < 25; i++)
    rows.push(richResult({ questionId: QUESTIONS[i % 3] as string, replicate: i + 1, passed: i % 4 !== 0 }));
  rows.push(timedOutResult("q2"));
  return rows;
}

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

describe.each(storageTargets())("result digests on $name", (target) => {
  const opened: Storage[] = [];
  let url = "";
  async function open(at?: string): Promise<Storage> {
    url = at ?? (await target.fresh());
    const storage = await openStorage(url);
    opened.push(storage);
    return storage;
  }
  afterEach(async () => {
    for (const storage of opened.splice(0)) await storage.close();
  });

  async function stored(): Promise<{ storage: Storage; runId: string; rows: VerificationResult[] }> {
    const storage = await open();
    await storage.saveBenchmark(bench());
    const run = await storage.startRun({ runName: "nightly", benchmarkName: "bench" });
    const rows = results();
    await storage.saveResults(run.id, rows);
    return { storage, runId: run.id, rows };
  }

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
    await rawQuery(
      url,
      "UPDATE verification_results SET digest_json = NULL, digest_version = NULL WHERE id % 2 = 0",
    );
    await rawQuery(
      url,
      "UPDATE verification_results SET digest_json = '{}', digest_version = 0 WHERE id % 3 = 0",
    );
    expect(await allDigests(storage, runId, 4)).toEqual(asStored(rows));
    await rawQuery(
      url,
      "UPDATE verification_results SET digest_json = NULL, result_json = '{\"metadata\": {}}' WHERE id = 2",
    );
    await expect(allDigests(storage, runId, 100)).rejects.toThrow(/verification_results row 2\b.*metadata/s);
  });

  test("upgrading a version 4 database gives its stored rows their digests", async () => {
    const { storage, runId, rows } = await stored();
    await storage.close();
    await rawQuery(url, "UPDATE verification_results SET result_json = '{\"metadata\": {}}' WHERE id = 3");
    await rawQuery(url, "ALTER TABLE verification_results DROP COLUMN digest_json");
    await rawQuery(url, "ALTER TABLE verification_results DROP COLUMN digest_version");
    await rawQuery(url, "DELETE FROM karenina_migrations WHERE name >= '0005_result_digests'");
    const upgraded = await open(url);
    const filled = await rawQuery(
      url,
      `SELECT id FROM verification_results WHERE digest_json IS NOT NULL AND digest_version = ${RESULT_DIGEST_VERSION} ORDER BY id`,
    );
    // Every row but the one that no longer validates (it keeps none, and readers report it).
    expect(filled.map((row) => Number(row.id))).toEqual(
      rows.map((_, index) => index + 1).filter((id) => id !== 3),
    );
    const [digest] = (await upgraded.loadResultDigestPage({ runId, limit: 1 })).digests;
    expect(digest).toEqual(asStored(rows.slice(0, 1))[0]);
    await expect(allDigests(upgraded, runId, 100)).rejects.toThrow(/verification_results row 3\b/);
  });

  test("upgrading a version 5 database rewrites its version 1 digests compactly, in ASCII", async () => {
    const { storage, runId, rows } = await stored();
    await storage.close();
    // What version 1 wrote is not read any more: any text under the old version number stands for it.
    await rawQuery(url, `UPDATE verification_results SET digest_json = '{"v1": "靶点"}', digest_version = 1`);
    await rawQuery(url, "DELETE FROM karenina_migrations WHERE name = '0006_compact_result_digests'");
    const upgraded = await open(url);
    const digests = await rawQuery(
      url,
      "SELECT digest_json, digest_version FROM verification_results ORDER BY id",
    );
    expect(digests.map((row) => [row.digest_json, Number(row.digest_version)])).toEqual(
      rows.map((row) => [digestJson(row), RESULT_DIGEST_VERSION]),
    );
    expect(digests.every((row) => /^[\x20-\x7e]*$/.test(String(row.digest_json)))).toBe(true);
    expect(await allDigests(upgraded, runId, 7)).toEqual(asStored(rows));
  });
});
