import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, describe, expect, test } from "vitest";
import { Benchmark } from "../benchmark/index.js";
import type { VerificationResult } from "../results/index.js";
import { createTestDatabase, postgresForTests, type TestDatabase } from "../test-support/postgres.js";
import { manyResults } from "./__fixtures__/results.js";
import { openStorage, type Storage } from "./index.js";
import { REPLACED_COLUMNS } from "./result-rows.js";

const TSX = fileURLToPath(new URL("../../../../node_modules/.bin/tsx", import.meta.url));
const WRITER = fileURLToPath(new URL("./__fixtures__/write-results.ts", import.meta.url));
const PER_WRITER = 200;
const postgres = postgresForTests();

/** A database holding a three-question benchmark and two started runs, `run-a` and `run-b`. */
async function prepare(url: string): Promise<void> {
  const storage = await openStorage(url);
  const bench = Benchmark.create({ name: "bench" });
  for (const id of ["q1", "q2", "q3"]) bench.addQuestion(`Question ${id}?`, "answer", { questionId: id });
  await storage.saveBenchmark(bench);
  await storage.startRun({ runId: "run-a", runName: "a", benchmarkName: "bench" });
  await storage.startRun({ runId: "run-b", runName: "b", benchmarkName: "bench" });
  await storage.close();
}

/** Per run: results stored and the run's own count. */
async function countsOf(storage: Storage, runId: string) {
  return {
    stored: await storage.countResults({ runId }),
    counted: (await storage.getRun(runId))?.processedCount,
  };
}

async function nextLine(
  child: ChildProcessWithoutNullStreams,
  lines: AsyncIterator<string>,
): Promise<string> {
  const line = await lines.next();
  if (line.done) throw new Error(`writer ${child.pid} ended early: ${child.stderr.read() ?? ""}`);
  return line.value;
}

function startWriter(url: string, runId: string, model: string) {
  const child = spawn(TSX, [WRITER, url, runId, model, String(PER_WRITER)], { stdio: "pipe" });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return { child, lines };
}

/** Every column of a result row but its id and result_id, to copy a row in SQL. */
const COPIED_COLUMNS = ["run_id", ...REPLACED_COLUMNS, "created_at"].join(", ");

/** Polls until a connection to this test's database waits for a lock (no clock in what is asserted). */
async function waitUntilABackendWaitsForALock(client: pg.Client): Promise<void> {
  for (;;) {
    const { rows } = await client.query(
      "SELECT count(*)::int AS waiting FROM pg_stat_activity " +
        "WHERE datname = current_database() AND wait_event_type = 'Lock'",
    );
    if ((rows[0] as { waiting: number }).waiting > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("two writers into one database lose nothing", () => {
  test("SQLite: two processes, each writing 200 results of its own run", async () => {
    const url = join(await mkdtemp(join(tmpdir(), "karenina-concurrent-")), "karenina.db");
    await prepare(url);
    const writers = [startWriter(url, "run-a", "model-a"), startWriter(url, "run-b", "model-b")];
    for (const { child, lines } of writers) expect(await nextLine(child, lines)).toBe("ready");
    for (const { child } of writers) child.stdin.write("go\n");
    const exits = await Promise.all(writers.map(({ child }) => once(child, "exit")));
    expect(exits.map(([code]) => code)).toEqual([0, 0]);

    const storage = await openStorage(url);
    expect(await countsOf(storage, "run-a")).toEqual({ stored: PER_WRITER, counted: PER_WRITER });
    expect(await countsOf(storage, "run-b")).toEqual({ stored: PER_WRITER, counted: PER_WRITER });
    await storage.close();
  }, 120_000);

  describe.skipIf(postgres.adminUrl === null)(
    `PostgreSQL: two storages with their own pools${postgres.skipReason ? ` — skipped: ${postgres.skipReason}` : ""}`,
    () => {
      let database: TestDatabase | undefined;
      afterAll(async () => {
        await database?.drop();
      });

      async function writeConcurrently(
        plan: ReadonlyArray<{ runId: string; model: string }>,
      ): Promise<string> {
        database ??= await createTestDatabase(postgres.adminUrl as string);
        await database.reset();
        await prepare(database.url);
        const storages = await Promise.all(plan.map(() => openStorage((database as TestDatabase).url)));
        await Promise.all(
          plan.map(async ({ runId, model }, index) => {
            const storage = storages[index] as Storage;
            for (const result of manyResults(["q1", "q2", "q3"], PER_WRITER, { answeringModel: model })) {
              await storage.saveResults(runId, [result]);
            }
          }),
        );
        await Promise.all(storages.map((storage) => storage.close()));
        return database.url;
      }

      test("each writing 200 results of its own run", async () => {
        const url = await writeConcurrently([
          { runId: "run-a", model: "model-a" },
          { runId: "run-b", model: "model-b" },
        ]);
        const storage = await openStorage(url);
        expect(await countsOf(storage, "run-a")).toEqual({ stored: PER_WRITER, counted: PER_WRITER });
        expect(await countsOf(storage, "run-b")).toEqual({ stored: PER_WRITER, counted: PER_WRITER });
        await storage.close();
      });

      test("both writing 200 results into the same run: the run's count is the sum", async () => {
        const url = await writeConcurrently([
          { runId: "run-a", model: "model-a" },
          { runId: "run-a", model: "model-b" },
        ]);
        const storage = await openStorage(url);
        expect(await countsOf(storage, "run-a")).toEqual({ stored: 2 * PER_WRITER, counted: 2 * PER_WRITER });
        await storage.close();
      });

      test("a save that waits for another transaction on its run counts that transaction's results too", async () => {
        database ??= await createTestDatabase(postgres.adminUrl as string);
        await database.reset();
        await prepare(database.url);
        const storage = await openStorage(database.url);
        const [first, second, third] = manyResults(["q1"], 3);
        await storage.saveResults("run-a", [first as VerificationResult]);
        const other = new pg.Client({ connectionString: database.url });
        await other.connect();
        try {
          // Another writer's transaction: it touched the run and added a result, and has not committed yet.
          await other.query("BEGIN");
          await other.query("UPDATE verification_runs SET updated_at = 'now' WHERE id = 'run-a'");
          await other.query(
            `INSERT INTO verification_results (${COPIED_COLUMNS}, result_id)
             SELECT ${COPIED_COLUMNS}, $1 FROM verification_results WHERE result_id = $2`,
            [third?.metadata.result_id, first?.metadata.result_id],
          );
          const saving = storage.saveResults("run-a", [second as VerificationResult]);
          await waitUntilABackendWaitsForALock(other);
          await other.query("COMMIT");
          await saving;
        } finally {
          await other.end();
        }
        expect(await countsOf(storage, "run-a")).toEqual({ stored: 3, counted: 3 });
        await storage.close();
      });
    },
  );
});
