import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { Benchmark } from "../benchmark/index.js";
import {
  parseResultsJson,
  parseVerificationResult,
  ResultsFileError,
  rowOutcome,
  type VerificationResult,
} from "../results/index.js";
import { conformancePath, hasConformance, SKIP_REASON } from "../test-support/conformance.js";
import { rawQuery, storagesPerTest, storageTargets, tempDir } from "./__fixtures__/databases.js";
import { manyResults, richResult, timedOutResult } from "./__fixtures__/results.js";
import {
  openStorage,
  STORAGE_SCHEMA_VERSION,
  StorageInputError,
  StorageNotFoundError,
  StorageOpenError,
  StorageSchemaError,
} from "./index.js";
import { VIEW_NAMES } from "./views.js";

const BUNDLED_EXAMPLE = fileURLToPath(new URL("../../examples/drug-targets.jsonld", import.meta.url));

/** The views migration 0003 added. */
const LATER_VIEWS = VIEW_NAMES.filter(
  (name) => !["template_results_view", "models_used_view"].includes(name),
);
/** A benchmark whose questions have the given ids (texts "Question <id>?"). */
function benchmarkWith(name: string, ids: readonly string[]): Benchmark {
  const bench = Benchmark.create({ name, version: "1.0.0" });
  for (const id of ids) bench.addQuestion(`Question ${id}?`, `Answer ${id}`, { questionId: id });
  return bench;
}

const resultIds = (results: readonly VerificationResult[]) => results.map((r) => r.metadata.result_id);

const targets = storageTargets();

describe.each(targets)("storage on $name", (target) => {
  const stores = storagesPerTest(target);
  const open = stores.open;

  describe("benchmarks", () => {
    test("the bundled example loads back as the same checkpoint", async () => {
      const storage = await open();
      const original = await Benchmark.load(BUNDLED_EXAMPLE);
      const saved = await storage.saveBenchmark(original, { checkpointPath: BUNDLED_EXAMPLE });
      expect(saved).toMatchObject({ name: original.name, questionCount: 5 });
      const loaded = await storage.loadBenchmark(original.name);
      expect(loaded.serialize({ saveDeepJudgmentConfig: true })).toBe(
        original.serialize({ saveDeepJudgmentConfig: true }),
      );
      expect(loaded.serialize()).toBe(original.serialize());
    });

    test.skipIf(!hasConformance)(
      `the original's checkpoint with rubrics loads back as the same checkpoint ${hasConformance ? "" : SKIP_REASON}`,
      async () => {
        const storage = await open();
        const original = await Benchmark.load(conformancePath("checkpoints/with_rubrics.jsonld"));
        await storage.saveBenchmark(original);
        const loaded = await storage.loadBenchmark(original.name);
        expect(loaded.serialize({ saveDeepJudgmentConfig: true })).toBe(
          original.serialize({ saveDeepJudgmentConfig: true }),
        );
        expect(loaded.getGlobalRubric()).toEqual(original.getGlobalRubric());
      },
    );

    test("saving under the same name again replaces the stored benchmark", async () => {
      const storage = await open();
      const bench = await Benchmark.load(BUNDLED_EXAMPLE);
      await storage.saveBenchmark(bench);
      const [first, second] = bench.getQuestionIds();
      bench.removeQuestion(first as string);
      bench.markUnfinished(second as string);
      bench.description = "edited";
      await storage.saveBenchmark(bench);

      const listed = await storage.listBenchmarks();
      expect(listed).toHaveLength(1);
      expect(listed[0]).toMatchObject({
        name: bench.name,
        description: "edited",
        questionCount: 4,
        finishedCount: 3,
      });
      const loaded = await storage.loadBenchmark(bench.name);
      expect(loaded.getQuestionIds()).toEqual(bench.getQuestionIds());
      expect(loaded.isFinished(second as string)).toBe(false);
      expect(loaded.serialize()).toBe(bench.serialize());
    });

    test("two benchmarks can share a question", async () => {
      const storage = await open();
      await storage.saveBenchmark(benchmarkWith("first", ["q1", "q2"]));
      await storage.saveBenchmark(benchmarkWith("second", ["q2", "q3"]));
      const listed = await storage.listBenchmarks();
      expect(listed.map((b) => [b.name, b.questionCount])).toEqual([
        ["first", 2],
        ["second", 2],
      ]);
      expect((await storage.loadBenchmark("second")).getQuestionIds()).toEqual(["q2", "q3"]);
    });

    test("loading an unknown benchmark names the ones stored", async () => {
      const storage = await open();
      await storage.saveBenchmark(benchmarkWith("Drug targets", ["q1"]));
      const error = await storage.loadBenchmark("drug targets").catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StorageNotFoundError);
      expect((error as Error).message).toBe(
        `${storage.database}: no benchmark "drug targets" in the database (stored: "Drug targets")`,
      );
    });
  });

  describe("results", () => {
    test("results load back exactly as saved: template, rubric and deep-judgment sections", async () => {
      const storage = await open();
      await storage.saveBenchmark(benchmarkWith("bench", ["q1", "q2"]));
      const run = await storage.startRun({ runName: "nightly", benchmarkName: "bench" });
      const results = [
        richResult({ questionId: "q1" }),
        richResult({ questionId: "q2", passed: false }),
        timedOutResult("q2"),
      ];
      await storage.saveResults(run.id, results);
      const loaded = await storage.loadResults({ runId: run.id });
      expect(loaded).toStrictEqual(results);
      expect(loaded.map((r) => JSON.stringify(r))).toEqual(results.map((r) => JSON.stringify(r)));
    });

    test("saving results again after a resume stores nothing twice and keeps the counts", async () => {
      const storage = await open();
      await storage.saveBenchmark(benchmarkWith("bench", ["q1", "q2", "q3"]));
      const run = await storage.startRun({ runId: "run-1", runName: "nightly", benchmarkName: "bench" });
      const results = manyResults(["q1", "q2", "q3"], 12);
      await storage.saveResults(run.id, results.slice(0, 8));
      const resumed = await storage.startRun({ runId: "run-1", runName: "nightly", benchmarkName: "bench" });
      expect(resumed.processedCount).toBe(8);
      await storage.saveResults(run.id, results.slice(4));
      await storage.saveResults(run.id, results.slice(4));

      expect(await storage.countResults({ runId: run.id })).toBe(12);
      expect(resultIds(await storage.loadResults({ runId: run.id }))).toEqual(resultIds(results));
      const stored = await storage.getRun(run.id);
      expect(stored).toMatchObject({
        status: "running",
        processedCount: 12,
        successfulCount: 8,
        failedCount: 4,
      });

      const first = results[0] as VerificationResult;
      const redone = { ...first, metadata: { ...first.metadata, execution_time: 9.5 } };
      await storage.saveResults(run.id, [redone]);
      const [reloaded] = await storage.loadResults({ runId: run.id, limit: 1 });
      expect(reloaded).toStrictEqual(redone);
      expect(await storage.countResults({ runId: run.id })).toBe(12);
    });

    test("pages of results cover every matching row exactly once, in a stable order", async () => {
      const storage = await open();
      await storage.saveBenchmark(benchmarkWith("bench", ["q1", "q2", "q3", "q4"]));
      const run = await storage.startRun({ runName: "big", benchmarkName: "bench" });
      const results = manyResults(["q1", "q2", "q3", "q4"], 57);
      for (let start = 0; start < results.length; start += 10) {
        await storage.saveResults(run.id, results.slice(start, start + 10));
      }
      for (const query of [{}, { passed: false }, { questionIds: ["q2", "q3"] }]) {
        const all = resultIds(await storage.loadResults(query));
        const total = await storage.countResults(query);
        expect(all).toHaveLength(total);
        const paged: string[] = [];
        for (let offset = 0; offset < total; offset += 10) {
          paged.push(...resultIds(await storage.loadResults({ ...query, limit: 10, offset })));
        }
        expect(paged).toEqual(all);
        expect(new Set(paged).size).toBe(total);
      }
      expect(await storage.countResults({ passed: false })).toBe(19);
    });

    test("filters: run, run name, benchmark, questions, answering model, passed", async () => {
      const storage = await open();
      await storage.saveBenchmark(benchmarkWith("alpha", ["q1", "q2"]));
      await storage.saveBenchmark(benchmarkWith("beta", ["q3"]));
      const a = await storage.startRun({ runName: "a", benchmarkName: "alpha" });
      const b = await storage.startRun({ runName: "b", benchmarkName: "beta" });
      await storage.saveResults(a.id, manyResults(["q1", "q2"], 6));
      await storage.saveResults(b.id, manyResults(["q3"], 3, { answeringModel: "claude-haiku-4-5" }));

      expect(await storage.countResults()).toBe(9);
      expect(await storage.countResults({ runId: a.id })).toBe(6);
      expect(await storage.countResults({ runName: "b" })).toBe(3);
      expect(await storage.countResults({ benchmarkName: "alpha" })).toBe(6);
      expect(await storage.countResults({ questionIds: ["q2", "q3"] })).toBe(6);
      expect(await storage.countResults({ questionIds: [] })).toBe(0);
      expect(await storage.countResults({ answeringModel: "claude-haiku-4-5" })).toBe(3);
      expect(await storage.countResults({ passed: true })).toBe(6);
      expect(await storage.countResults({ runName: "a", passed: false, questionIds: ["q1"] })).toBe(1);
      const passed = await storage.loadResults({ passed: true });
      expect(passed.every((r) => r.template?.verify_result === true)).toBe(true);
    });

    test("a row that failed after its verification gave true is not passed, as rowOutcome says", async () => {
      const storage = await open();
      await storage.saveBenchmark(benchmarkWith("alpha", ["q1", "q2"]));
      const run = await storage.startRun({ runName: "a", benchmarkName: "alpha" });
      const timedOut = richResult({ questionId: "q2" });
      const failure = {
        category: "timeout",
        stage: "generate_answer",
        reason: "timed out after 30 s",
      } as const;
      const failed = parseVerificationResult({ ...timedOut, metadata: { ...timedOut.metadata, failure } });
      await storage.saveResults(run.id, [richResult({ questionId: "q1" }), failed]);

      expect(rowOutcome(failed)).toBe("failed");
      expect((await storage.loadResults({ passed: true })).map((r) => r.metadata.question_id)).toEqual([
        "q1",
      ]);
      expect((await storage.loadResults({ passed: false })).map((r) => r.metadata.question_id)).toEqual([
        "q2",
      ]);
    });

    test("results of questions the database does not hold are refused and nothing is written", async () => {
      const storage = await open();
      await storage.saveBenchmark(benchmarkWith("bench", ["q1"]));
      const run = await storage.startRun({ runName: "r", benchmarkName: "bench" });
      const error = await storage
        .saveResults(run.id, [richResult({ questionId: "q1" }), richResult({ questionId: "ghost" })])
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StorageInputError);
      expect((error as Error).message).toContain('results for question not in the database: "ghost"');
      expect(await storage.countResults()).toBe(0);
    });

    test("results of an unknown run are refused", async () => {
      const storage = await open();
      const error = await storage.saveResults("nope", []).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StorageNotFoundError);
      expect((error as Error).message).toContain(
        'no run "nope" in the database (start it with startRun first)',
      );
    });
  });

  describe("runs", () => {
    test("a run starts running, finishes with a summary, is listed and deleted with its results", async () => {
      const storage = await open();
      await storage.saveBenchmark(benchmarkWith("bench", ["q1"]));
      const config = { answering_models: [{ id: "a", api_key: "**********" }], replicate_count: 2 };
      const run = await storage.startRun({
        runName: "nightly",
        benchmarkName: "bench",
        config,
        totalQuestions: 1,
      });
      expect(run).toMatchObject({ runName: "nightly", benchmarkName: "bench", status: "running", config });
      expect(run.id).toMatch(/^[0-9a-f-]{36}$/);
      await storage.saveResults(run.id, [richResult({ questionId: "q1" })]);
      const finished = await storage.finishRun(run.id, { status: "completed", summary: { passed: 1 } });
      expect(finished).toMatchObject({ status: "completed", summary: { passed: 1 }, processedCount: 1 });
      expect(finished.endTime).not.toBeNull();

      expect((await storage.listRuns({ benchmarkName: "bench" })).map((r) => r.id)).toEqual([run.id]);
      expect(await storage.listRuns({ status: "running" })).toEqual([]);
      expect((await storage.listRuns({ runName: "nightly" })).map((r) => r.id)).toEqual([run.id]);
      expect(await storage.listRuns({ runName: "weekly" })).toEqual([]);
      expect(await storage.deleteRun(run.id)).toBe(true);
      expect(await storage.deleteRun(run.id)).toBe(false);
      expect(await storage.countResults()).toBe(0);
      expect(await storage.getRun(run.id)).toBeNull();
    });

    test("runs list newest first, a page at a time", async () => {
      const storage = await open();
      await storage.saveBenchmark(benchmarkWith("bench", ["q1"]));
      const ids: string[] = [];
      for (let i = 0; i < 5; i++)
        ids.push((await storage.startRun({ runName: `r${i}`, benchmarkName: "bench" })).id);
      const all = (await storage.listRuns()).map((r) => r.id);
      expect([...all].sort()).toEqual([...ids].sort());
      const pages = [
        ...(await storage.listRuns({ limit: 2 })),
        ...(await storage.listRuns({ limit: 2, offset: 2 })),
        ...(await storage.listRuns({ offset: 4 })),
      ].map((r) => r.id);
      expect(pages).toEqual(all);
    });

    test("finishing with another status or an unknown run is refused", async () => {
      const storage = await open();
      await storage.saveBenchmark(benchmarkWith("bench", ["q1"]));
      const run = await storage.startRun({ runName: "r", benchmarkName: "bench" });
      const bad = await storage.finishRun(run.id, { status: "done" as "completed" }).catch((e: unknown) => e);
      expect(bad).toBeInstanceOf(StorageInputError);
      expect((bad as Error).message).toContain(
        'finishRun: status: expected one of completed, failed, cancelled, found a string "done"',
      );
      const missing = await storage.finishRun("nope", { status: "failed" }).catch((e: unknown) => e);
      expect(missing).toBeInstanceOf(StorageNotFoundError);
    });

    test("a run of an unknown benchmark, or a run id of another benchmark, is refused", async () => {
      const storage = await open();
      await storage.saveBenchmark(benchmarkWith("alpha", ["q1"]));
      await storage.saveBenchmark(benchmarkWith("beta", ["q2"]));
      await expect(storage.startRun({ runName: "r", benchmarkName: "gamma" })).rejects.toThrow(
        StorageNotFoundError,
      );
      await storage.startRun({ runId: "shared", runName: "r", benchmarkName: "alpha" });
      await expect(
        storage.startRun({ runId: "shared", runName: "r", benchmarkName: "beta" }),
      ).rejects.toThrow('run "shared" belongs to benchmark "alpha", not "beta"');
    });
  });

  describe.skipIf(!hasConformance)(`importing results exports ${hasConformance ? "" : SKIP_REASON}`, () => {
    const exportPath = conformancePath("export_format/results_export_full.json");

    test("the original's export imports into a new completed run, rows exactly as in the file", async () => {
      const storage = await open();
      const text = await readFile(exportPath, "utf8");
      await storage.saveBenchmark(benchmarkWith("bench", ["q-unicode", "q-timeout"]));
      const outcome = await storage.importVerificationResults(text, {
        benchmarkName: "bench",
        sourceFilename: "results_export_full.json",
      });
      expect(outcome).toMatchObject({ imported: 2, skipped: 0 });
      expect(outcome.runName).toBe(`import_${outcome.runId.slice(0, 8)}`);
      expect(await storage.getRun(outcome.runId)).toMatchObject({
        status: "completed",
        processedCount: 2,
        successfulCount: 1,
        failedCount: 1,
        totalQuestions: 2,
      });
      const rows = await storage.loadResults({ runId: outcome.runId });
      expect(rows).toStrictEqual(parseResultsJson(text).results);
      const [imported] = await rawQuery(
        stores.url,
        "SELECT source_format_version, source_job_id, source_filename, results_count FROM import_metadata",
      );
      expect({ ...imported, results_count: Number(imported?.results_count) }).toEqual({
        source_format_version: "2.2",
        source_job_id: "job-fixture-001",
        source_filename: "results_export_full.json",
        results_count: 2,
      });
    });

    test("results of questions the benchmark lacks are skipped; ids may be matched by urn or text", async () => {
      const storage = await open();
      const json = JSON.parse(await readFile(exportPath, "utf8")) as { results: { metadata: object }[] };
      const bench = benchmarkWith("bench", ["urn:uuid:q-unicode"]);
      await storage.saveBenchmark(bench);
      const outcome = await storage.importVerificationResults(json, {
        benchmarkName: "bench",
        runName: "imported",
      });
      expect(outcome).toMatchObject({ runName: "imported", imported: 1, skipped: 1 });
      expect(await storage.countResults({ questionIds: ["urn:uuid:q-unicode"] })).toBe(1);

      const byText = Benchmark.create({ name: "by text" });
      const text = "Qu'est-ce que la température idéale du café? 咖啡的理想温度是多少?";
      byText.addQuestion(text, "93 °C");
      await storage.saveBenchmark(byText);
      expect(await storage.importVerificationResults(json, { benchmarkName: "by text" })).toMatchObject({
        imported: 1,
        skipped: 1,
      });
    });

    test("only exports of format 2.0 to 2.2 with results are imported", async () => {
      const storage = await open();
      await storage.saveBenchmark(benchmarkWith("bench", ["q1"]));
      const options = { benchmarkName: "bench", sourceFilename: "old.json" };
      const old = await storage
        .importVerificationResults({ format_version: "1.0", results: [{}] }, options)
        .catch((e: unknown) => e);
      expect(old).toBeInstanceOf(ResultsFileError);
      expect((old as Error).message).toBe(
        'old.json: $.format_version: expected one of "2.0", "2.1", "2.2", found a string "1.0"',
      );
      const empty = await readFile(conformancePath("export_format/results_export_empty.json"), "utf8");
      await expect(storage.importVerificationResults(empty, options)).rejects.toThrow(
        "old.json: $.results: expected a non-empty array of results, found an array of 0",
      );
      await expect(storage.importVerificationResults("{", options)).rejects.toThrow(
        "old.json: not valid JSON",
      );
      expect(await storage.listRuns()).toEqual([]);
    });
  });

  describe("schema", () => {
    test("the views show results with their run, benchmark and models", async () => {
      const storage = await open();
      await storage.saveBenchmark(benchmarkWith("bench", ["q1", "q2"]));
      const run = await storage.startRun({ runName: "nightly", benchmarkName: "bench" });
      await storage.saveResults(run.id, [
        richResult({ questionId: "q1", questionText: "What is 咖啡?" }),
        richResult({ questionId: "q2", passed: false }),
        timedOutResult("q2"),
      ]);
      const rows = await rawQuery(
        stores.url,
        "SELECT result_id, run_name, benchmark_name, question_id, question_text, verify_result, replicate " +
          "FROM template_results_view ORDER BY question_id",
      );
      expect(rows.map((row) => ({ ...row, verify_result: Boolean(row.verify_result) }))).toEqual([
        {
          result_id: richResult({ questionId: "q1" }).metadata.result_id,
          run_name: "nightly",
          benchmark_name: "bench",
          question_id: "q1",
          question_text: "What is 咖啡?",
          verify_result: true,
          replicate: null,
        },
        expect.objectContaining({ question_id: "q2", verify_result: false }),
      ]);
      const models = await rawQuery(stores.url, "SELECT * FROM models_used_view ORDER BY model_name");
      expect(
        models.map((m) => [
          m.interface,
          m.model_name,
          Boolean(m.used_for_answering),
          Boolean(m.used_for_parsing),
        ]),
      ).toEqual([
        ["openai_endpoint", "gpt-4.1-mini", true, false],
        ["openai_endpoint", "judge-mini", false, true],
      ]);
    });

    test("a database at schema version 1 is brought to the current version, keeping its rows", async () => {
      const first = await open();
      await first.saveBenchmark(benchmarkWith("bench", ["q1", "q2"]));
      const run = await first.startRun({ runName: "old", benchmarkName: "bench" });
      await first.saveResults(run.id, manyResults(["q1", "q2"], 4));
      await first.close();
      // Back to what version 1 wrote: no ordering index, no original template, two views, one migration.
      await rawQuery(stores.url, "DROP INDEX verification_results_run_order_idx");
      for (const view of LATER_VIEWS) await rawQuery(stores.url, `DROP VIEW ${view}`);
      await rawQuery(stores.url, "ALTER TABLE benchmark_questions DROP COLUMN original_answer_template");
      await rawQuery(stores.url, "DROP TABLE server_jobs");
      await rawQuery(stores.url, "DROP TABLE result_table_rows");
      await rawQuery(stores.url, "DROP TABLE run_summaries");
      await rawQuery(stores.url, "DROP TABLE benchmark_scenarios");
      await rawQuery(stores.url, "DROP TABLE result_digests");
      await rawQuery(stores.url, "ALTER TABLE verification_runs DROP COLUMN is_imported");
      await rawQuery(stores.url, "DELETE FROM karenina_migrations WHERE name <> '0001_initial'");
      const upgraded = await open(stores.url);
      expect(await upgraded.countResults({ runId: run.id })).toBe(4);
      const names = await rawQuery(stores.url, "SELECT name FROM karenina_migrations ORDER BY name");
      expect(names.map((row) => row.name)).toEqual([
        "0001_initial",
        "0002_run_results_order",
        "0003_original_template_and_views",
        "0004_server_jobs",
        "0005_result_digests",
        "0006_compact_result_digests",
        "0007_result_digest_table",
        "0008_run_imported_flag",
        "0009_result_table_rows",
        "0010_run_summaries",
        "0011_benchmark_scenarios",
      ]);
      expect(STORAGE_SCHEMA_VERSION).toBe(11);
      // Rows saved before the column existed get their template as the original one.
      const members = await rawQuery(
        stores.url,
        "SELECT question_id FROM benchmark_questions WHERE original_answer_template = answer_template",
      );
      expect(members.map((row) => row.question_id).sort()).toEqual(["q1", "q2"]);
      for (const view of LATER_VIEWS) await rawQuery(stores.url, `SELECT * FROM ${view}`);
    });

    test("reopening a database keeps what it holds", async () => {
      const first = await open();
      await first.saveBenchmark(benchmarkWith("bench", ["q1"]));
      await first.close();
      const second = await open(stores.url);
      expect((await second.listBenchmarks()).map((b) => b.name)).toEqual(["bench"]);
    });

    test("a database of a newer schema is refused, naming both versions, and left unchanged", async () => {
      const storage = await open();
      await storage.saveBenchmark(benchmarkWith("bench", ["q1"]));
      await storage.close();
      await rawQuery(
        stores.url,
        "INSERT INTO karenina_migrations (name, timestamp) VALUES ('0999_future', '2030-01-01')",
      );
      const error = await openStorage(stores.url).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StorageSchemaError);
      expect((error as Error).message).toBe(
        `${storage.database}: the database schema is at version 999 (migration 0999_future), newer than this ` +
          `karenina understands (schema version ${STORAGE_SCHEMA_VERSION}). Nothing was changed; upgrade karenina to open it`,
      );
      expect(await rawQuery(stores.url, "SELECT name FROM benchmarks")).toEqual([{ name: "bench" }]);
    });

    test("a database with karenina's table names but not its migrations is refused", async () => {
      const url = await target.fresh();
      await rawQuery(url, "CREATE TABLE benchmarks (id INTEGER PRIMARY KEY, name TEXT)");
      const error = await openStorage(url).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StorageSchemaError);
      expect((error as Error).message).toContain("holds tables named as karenina's (benchmarks)");
    });
  });
});

describe("opening what is not a database", () => {
  test("a text file", async () => {
    const file = join(await tempDir(), "notes.db");
    await writeFile(file, "these are notes, not a database\n".repeat(100));
    const error = await openStorage(file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StorageOpenError);
    expect((error as Error).message).toBe(
      `${file}: cannot open the SQLite database: file is not a database (SQLITE_NOTADB)`,
    );
    expect(await readFile(file, "utf8")).toBe("these are notes, not a database\n".repeat(100));
  });

  test("a file in a missing directory", async () => {
    const file = join(await tempDir(), "missing", "karenina.db");
    const error = await openStorage(`sqlite:///${file}`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StorageOpenError);
    expect((error as Error).message).toContain(`sqlite:///${file}: cannot open the SQLite database:`);
    expect((error as Error).message).toContain("directory does not exist");
  });

  test("a PostgreSQL server that refuses the connection, password masked", async () => {
    const server = (await import("node:net")).createServer();
    const port = await new Promise<number>((resolve) =>
      server.listen(0, "127.0.0.1", () => resolve((server.address() as { port: number }).port)),
    );
    await new Promise((resolve) => server.close(resolve));
    const error = await openStorage(`postgres://karenina:s3cret@127.0.0.1:${port}/bench`).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(StorageOpenError);
    expect((error as Error).message).toBe(
      `postgres://karenina:***@127.0.0.1:${port}/bench: cannot connect to PostgreSQL: ` +
        `connect ECONNREFUSED 127.0.0.1:${port}`,
    );
  });
});
