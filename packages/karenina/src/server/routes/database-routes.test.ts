import { mkdir, stat, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { Benchmark } from "../../benchmark/index.js";
import { rawQuery, storageTargets, tempDir } from "../../storage/__fixtures__/databases.js";
import { richResult } from "../../storage/__fixtures__/results.js";
import { openStorage } from "../../storage/index.js";
import { callApi, type ErrorBody, type Page } from "../__fixtures__/api-calls.js";
import { startTestServer, type TestServer } from "../__fixtures__/test-server.js";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The test's server at `path`, with `body` as JSON when given; the answer read as `T`. */
const call = <T = ErrorBody>(method: string, path: string, body?: unknown) =>
  callApi<T>(server?.url ?? "", method, path, body);

type Checkpoint = ReturnType<typeof checkpointOf>;
type Item = Checkpoint["dataFeedElement"][number];
/** A benchmark as the benchmark routes answer with it. */
interface StoredBenchmark {
  readonly name: string;
  readonly question_count: number;
  readonly checkpoint: Checkpoint;
}
interface Duplicates {
  readonly duplicates: readonly { question_id: string; old_version: Item; new_version: Item }[];
}
interface StoredRow {
  readonly metadata: { question_id: string };
  readonly template: unknown;
}
interface DatabaseList {
  readonly db_directory: string;
  readonly databases: readonly { name: string; connections: string[] }[];
}

/** A checkpoint of questions q0..q(n-1), answers a0.., with an author on the first. */
function checkpointOf(name: string, count: number) {
  const bench = Benchmark.create({ name, version: "1.0.0", creator: "Tests" });
  for (let i = 0; i < count; i += 1) bench.addQuestion(`What is q${i}?`, `a${i}`);
  const first = bench.getQuestionIds()[0];
  if (first) bench.setQuestionAuthor(first, { name: "Ada" });
  if (first) bench.markUnfinished(first);
  return bench.toCheckpoint();
}

for (const target of storageTargets()) {
  describe(`benchmark and stored-run routes on ${target.name}`, () => {
    const start = async () => {
      server = await startTestServer({ storageUrl: await target.fresh() });
      return server;
    };

    test("create → list → get the full checkpoint (author kept) → 409 on a second create", async () => {
      await start();
      const created = await call<StoredBenchmark>("POST", "/api/v2/benchmarks", {
        name: "drugs",
        description: "d",
      });
      expect(created.status).toBe(201);
      expect(created.json.name).toBe("drugs");
      expect(created.json.checkpoint.creator).toBe("Unknown");
      expect((await call("POST", "/api/v2/benchmarks", { name: "drugs" })).json).toEqual({
        error: { code: "conflict", message: 'benchmark "drugs" exists' },
      });
      const saved = await call("PUT", "/api/v2/benchmarks/drugs", { checkpoint: checkpointOf("x", 3) });
      expect(saved.status).toBe(200);
      expect(saved.json).toMatchObject({ name: "drugs", question_count: 3 });
      const list = await call<Page<unknown>>("GET", "/api/v2/benchmarks?page_size=10");
      expect(list.json).toMatchObject({ page: 1, page_size: 10, total: 1 });
      expect(list.json.items[0]).toMatchObject({
        name: "drugs",
        total_questions: 3,
        finished_count: 2,
        unfinished_count: 1,
      });
      const got = await call<StoredBenchmark>("GET", "/api/v2/benchmarks/drugs");
      expect(got.status).toBe(200);
      const items = got.json.checkpoint.dataFeedElement;
      expect(items).toHaveLength(3);
      const loaded = Benchmark.fromCheckpoint(got.json.checkpoint);
      expect(loaded.getQuestionAuthor(loaded.getQuestionIds()[0] as string)).toEqual({ name: "Ada" });
    });

    test("saving after deleting a question removes it, and an edited answer reaches the question row", async () => {
      const { deps } = await start();
      const doc = checkpointOf("b", 3);
      await call("PUT", "/api/v2/benchmarks/b", { checkpoint: doc });
      const removedId = doc.dataFeedElement[2]?.["@id"];
      const edited = structuredClone(doc);
      edited.dataFeedElement.pop();
      const first = edited.dataFeedElement[0] as Item;
      first.item.acceptedAnswer.text = "edited";
      const saved = await call<StoredBenchmark>("PUT", "/api/v2/benchmarks/b", { checkpoint: edited });
      expect(saved.json.question_count).toBe(2);
      const got = await call<StoredBenchmark>("GET", "/api/v2/benchmarks/b");
      expect(got.json.checkpoint.dataFeedElement.map((i) => i["@id"])).not.toContain(removedId);
      expect(got.json.checkpoint.dataFeedElement).toHaveLength(2);
      const rows = await rawQuery(
        deps.storageUrl,
        `SELECT raw_answer FROM questions WHERE id = '${doc.dataFeedElement[0]?.["@id"]}'`,
      );
      expect(rows).toEqual([{ raw_answer: "edited" }]);
    });

    test("detect_duplicates lists changed questions and writes nothing; resolutions merge keep_old / keep_new", async () => {
      await start();
      const doc = checkpointOf("m", 2);
      await call("PUT", "/api/v2/benchmarks/m", { checkpoint: doc });
      const sent = structuredClone(doc);
      const [first, second] = sent.dataFeedElement as [Item, Item];
      first.item.acceptedAnswer.text = "new0";
      second.item.acceptedAnswer.text = "new1";
      const extra = checkpointOf("other", 3).dataFeedElement[2] as Item;
      extra.item.text = "A brand new question?";
      extra["@id"] = "urn:uuid:question-brand-new";
      sent.dataFeedElement.push(extra);
      const detect = await call<Duplicates>("PUT", "/api/v2/benchmarks/m", {
        checkpoint: sent,
        detect_duplicates: true,
      });
      expect(detect.status).toBe(200);
      expect(detect.json.duplicates.map((d) => d.question_id)).toEqual(
        doc.dataFeedElement.map((i) => i["@id"]),
      );
      expect(detect.json.duplicates[0]?.old_version.item.acceptedAnswer.text).toBe("a0");
      expect(detect.json.duplicates[0]?.new_version.item.acceptedAnswer.text).toBe("new0");
      const unchanged = await call<StoredBenchmark>("GET", "/api/v2/benchmarks/m");
      expect(unchanged.json.checkpoint.dataFeedElement).toHaveLength(2);
      const merged = await call("POST", "/api/v2/benchmarks/m/duplicates", {
        checkpoint: sent,
        resolutions: { [doc.dataFeedElement[0]?.["@id"] as string]: "keep_old" },
      });
      expect(merged.status).toBe(200);
      expect(merged.json).toMatchObject({ question_count: 3, kept_old_count: 1, kept_new_count: 1 });
      const answers = (
        await call<StoredBenchmark>("GET", "/api/v2/benchmarks/m")
      ).json.checkpoint.dataFeedElement.map((i) => i.item.acceptedAnswer.text);
      expect(answers).toEqual(["a0", "new1", "a2"]);
    });

    test("import results, list runs and filter results; delete returns both counts; unknown names are 404", async () => {
      await start();
      const doc = checkpointOf("r", 2);
      await call("PUT", "/api/v2/benchmarks/r", { checkpoint: doc });
      const [q0, q1] = doc.dataFeedElement.map((i) => i["@id"] as string);
      const results = [
        richResult({ questionId: q0 as string, questionText: "What is q0?", passed: true }),
        richResult({ questionId: q1 as string, questionText: "What is q1?", passed: false }),
        richResult({ questionId: "urn:uuid:question-not-here", questionText: "Elsewhere?", passed: true }),
      ];
      const imported = await call<{ run_id: string }>("POST", "/api/v2/benchmarks/r/results", {
        results_export: { format_version: "2.2", metadata: {}, results },
        run_name: "imported",
      });
      expect(imported.status).toBe(201);
      expect(imported.json).toMatchObject({ run_name: "imported", imported_count: 2, skipped_count: 1 });
      const runs = await call<Page<unknown>>("GET", "/api/v2/verification-runs?benchmark_name=r");
      expect(runs.json.total).toBe(1);
      expect(runs.json.items[0]).toMatchObject({
        id: imported.json.run_id,
        run_name: "imported",
        benchmark_name: "r",
        status: "completed",
        processed_count: 2,
        is_imported: true,
      });
      const all = await call<Page<object>>(
        "GET",
        `/api/v2/verification-results?run_id=${imported.json.run_id}&page_size=1`,
      );
      expect(all.json).toMatchObject({ total: 2, page_size: 1 });
      expect(all.json.items).toHaveLength(1);
      expect(Object.keys(all.json.items[0] ?? {}).sort()).toEqual(
        [
          "answering",
          "caveats",
          "execution_time",
          "failure",
          "parsing",
          "question_id",
          "question_text",
          "replicate",
          "result_id",
          "run_name",
          "timestamp",
          "verify_result",
        ].sort(),
      );
      const failed = await call<Page<StoredRow>>(
        "GET",
        "/api/v2/verification-results?passed=false&fields=full",
      );
      expect(failed.json.total).toBe(1);
      expect(failed.json.items[0]?.metadata.question_id).toBe(q1);
      expect(failed.json.items[0]?.template).not.toBeNull();
      expect((await call("GET", "/api/v2/verification-results?page_size=101")).status).toBe(422);

      const badExport = await call("POST", "/api/v2/benchmarks/r/results", {
        results_export: { format_version: "1.0", results: [] },
      });
      expect(badExport.status).toBe(422);
      expect(badExport.json.error.message).toContain("$.format_version");

      expect(await call("DELETE", "/api/v2/benchmarks/r")).toEqual({
        status: 200,
        json: { deleted_questions: 2, deleted_runs: 1 },
      });
      expect((await call<Page<unknown>>("GET", "/api/v2/verification-runs")).json.total).toBe(0);
      const missing = await call("GET", "/api/v2/benchmarks/r");
      expect(missing.status).toBe(404);
      expect(missing.json.error.code).toBe("not_found");
      expect((await call("DELETE", "/api/v2/benchmarks/r")).status).toBe(404);
    });

    test("stored runs are paged by the database: total, newest first, no page repeats a run; imported ones flagged", async () => {
      const url = await target.fresh();
      server = await startTestServer({ storageUrl: url });
      const doc = checkpointOf("p", 1);
      await call("PUT", "/api/v2/benchmarks/p", { checkpoint: doc });
      const storage = await openStorage(url);
      const ran: string[] = [];
      try {
        for (let i = 0; i < 4; i++)
          ran.push((await storage.startRun({ runName: `ran${i}`, benchmarkName: "p" })).id);
        await storage.finishRun(ran[0] as string, { status: "completed" });
      } finally {
        await storage.close();
      }
      const questionId = doc.dataFeedElement[0]?.["@id"] as string;
      const imported = await call<{ run_id: string }>("POST", "/api/v2/benchmarks/p/results", {
        results_export: {
          format_version: "2.2",
          metadata: {},
          results: [richResult({ questionId, questionText: "What is q0?", passed: true })],
        },
      });
      expect(imported.status).toBe(201);
      type Run = { id: string; is_imported: boolean };
      const pages: Page<Run>[] = [];
      for (let page = 1; page <= 3; page++) {
        pages.push((await call<Page<Run>>("GET", `/api/v2/verification-runs?page=${page}&page_size=2`)).json);
      }
      expect(pages.map((page) => [page.total, page.items.length])).toEqual([
        [5, 2],
        [5, 2],
        [5, 1],
      ]);
      const listed = pages.flatMap((page) => page.items);
      expect(new Set(listed.map((run) => run.id)).size).toBe(5);
      expect(listed.filter((run) => run.is_imported).map((run) => run.id)).toEqual([imported.json.run_id]);
      const running = await call<Page<Run>>(
        "GET",
        "/api/v2/verification-runs?status=running&page_size=2&page=2",
      );
      expect(running.json).toMatchObject({ total: 3, page: 2, page_size: 2 });
      expect(running.json.items).toHaveLength(1);
      const beyond = await call<Page<Run>>("GET", "/api/v2/verification-runs?page=9&page_size=2");
      expect(beyond.json).toMatchObject({ total: 5, items: [] });
    });

    test("a hostile checkpoint (prototype key, wrong type) is refused with 422 naming the problem", async () => {
      await start();
      const doc = checkpointOf("h", 1);
      const text = JSON.stringify({ checkpoint: doc }).replace(
        '"name":"h"',
        '"name":"h","__proto__":{"polluted":1}',
      );
      const res = await fetch(`${server?.url}/api/v2/benchmarks/h`, {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: text,
      });
      expect(res.status).toBe(422);
      expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
      const wrong = await call("PUT", "/api/v2/benchmarks/h", { checkpoint: { ...doc, dataFeedElement: 3 } });
      expect(wrong.status).toBe(422);
      expect(wrong.json.error.message).toContain("body.checkpoint.dataFeedElement");
    });
  });
}

describe("database files and named connections (SQLite)", () => {
  test("create, connect by name, use with ?db=, list, delete; containment refuses ../ and links out", async () => {
    const workDir = await tempDir();
    server = await startTestServer({ workDir });
    const created = await call("POST", "/api/v2/databases", { name: "extra" });
    expect(created).toMatchObject({ status: 201, json: { name: "extra.db" } });
    expect((await call("POST", "/api/v2/databases", { name: "extra.db" })).status).toBe(409);

    const connected = await call("POST", "/api/v2/databases/connections", {
      name: "x",
      sqlite_file: "extra",
    });
    expect(connected.status).toBe(201);
    expect(connected.json).toMatchObject({
      connection: { name: "x", dialect: "sqlite", file: join(workDir, "extra.db") },
      benchmark_count: 0,
    });
    await call("POST", "/api/v2/benchmarks?db=x", { name: "only-in-x" });
    expect((await call<Page<unknown>>("GET", "/api/v2/benchmarks?db=x")).json.total).toBe(1);
    expect((await call<Page<unknown>>("GET", "/api/v2/benchmarks")).json.total).toBe(0);
    expect((await call("GET", "/api/v2/benchmarks?db=nope")).status).toBe(404);

    const listed = await call<DatabaseList>("GET", "/api/v2/databases");
    expect(listed.json.db_directory).toBe(workDir);
    expect(listed.json.databases.map((d) => [d.name, d.connections])).toEqual([
      ["extra.db", ["x"]],
      ["karenina.db", []],
    ]);

    const outside = await tempDir();
    await writeFile(join(outside, "victim.db"), "keep me");
    await symlink(join(outside, "victim.db"), join(workDir, "link.db"));
    const escaped = await call("DELETE", "/api/v2/databases/link.db");
    expect(escaped.status).toBe(403);
    expect(escaped.json.error.message).toBe('database "link.db" resolves outside the database directory');
    expect((await stat(join(outside, "victim.db"))).size).toBe(7);
    const traversal = await call("DELETE", `/api/v2/databases/${encodeURIComponent("../victim.db")}`);
    expect(traversal.status).toBe(422);
    expect((await call("DELETE", "/api/v2/databases/karenina.db")).status).toBe(403);
    expect(
      (await call("POST", "/api/v2/databases/connections", { name: "y", sqlite_file: "../x.db" })).status,
    ).toBe(422);

    expect((await call("DELETE", "/api/v2/databases/extra.db")).status).toBe(204);
    expect(
      (
        await call<{ connections: { name: string }[] }>("GET", "/api/v2/databases/connections")
      ).json.connections.map((c) => c.name),
    ).toEqual(["default"]);
    expect((await call("DELETE", "/api/v2/databases/extra.db")).status).toBe(404);
  });

  test("a missing database directory is 404; connecting to a missing file with create_if_missing false is 400", async () => {
    const workDir = await tempDir();
    server = await startTestServer({ workDir, env: { DB_PATH: "absent" } });
    expect((await call("GET", "/api/v2/databases")).status).toBe(404);
    await mkdir(join(workDir, "absent"));
    const res = await call("POST", "/api/v2/databases/connections", {
      name: "z",
      sqlite_file: "none.db",
      create_if_missing: false,
    });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe("database_unavailable");
  });
});
