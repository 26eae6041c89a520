import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, test, vi } from "vitest";
import { Benchmark } from "../benchmark/index.js";
import { END, Scenario, ScenarioError } from "../scenario/index.js";
import { rawQuery, storagesPerTest, storageTargets, tempDir } from "./__fixtures__/databases.js";

const FIXTURE = new URL("../scenario/__fixtures__/capital-scenarios.jsonld", import.meta.url).pathname;

/** A one-turn scenario to add beside the fixture's. */
const oneTurn = (name: string) =>
  new Scenario(name)
    .addNode("ask", { question: { question: `Question of ${name}?`, raw_answer: "Yes" } })
    .addEdge("ask", END)
    .setEntry("ask");

/** A JSON column's value as text, whichever driver read it (pg parses `json` columns). */
const jsonText = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));

/** SQL text literal. */
const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

describe.each(storageTargets())("scenario benchmarks stored on $name", (target) => {
  const stores = storagesPerTest(target);
  const open = stores.open;
  afterEach(() => {
    vi.useRealTimers();
  });

  test("saved to the database and saved back to a file, a scenario benchmark is the same file, byte for byte", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-03-04T05:06:07Z"));
    const dir = await tempDir();
    const original = await Benchmark.load(FIXTURE);
    const direct = await original.save(join(dir, "direct.jsonld"));
    const storage = await open();
    expect(await storage.saveBenchmark(original)).toMatchObject({ questionCount: 0, scenarioCount: 1 });
    const loaded = await storage.loadBenchmark(original.name);
    expect(loaded.getScenarios().map((s) => s.name)).toEqual(["capital-pushback"]);
    const throughDb = await loaded.save(join(dir, "through-db.jsonld"));
    expect(await readFile(throughDb, "utf8")).toBe(await readFile(direct, "utf8"));
  });

  test("each scenario is a row of its own: the checkpoint's scenario node, by position and name", async () => {
    const storage = await open();
    const bench = await Benchmark.load(FIXTURE);
    bench.addScenario(oneTurn("second"));
    const { id } = await storage.saveBenchmark(bench);
    const rows = await rawQuery(
      stores.url,
      `SELECT position, name, scenario_json FROM benchmark_scenarios WHERE benchmark_id = ${id} ORDER BY position`,
    );
    expect(rows.map((row) => [Number(row.position), row.name])).toEqual([
      [0, "capital-pushback"],
      [1, "second"],
    ]);
    const nodes = bench.toCheckpoint().hasPart;
    expect(rows.map((row) => JSON.parse(jsonText(row.scenario_json)))).toEqual(nodes);
    const [metadata] = await rawQuery(stores.url, `SELECT metadata_json FROM benchmarks WHERE id = ${id}`);
    expect(JSON.parse(jsonText(metadata?.metadata_json)).checkpoint.hasPart).toEqual([]);
  });

  test("saving again replaces the scenarios: a removed one goes, an added one comes", async () => {
    const storage = await open();
    const bench = await Benchmark.load(FIXTURE);
    bench.addScenario(oneTurn("second"));
    await storage.saveBenchmark(bench);
    bench.removeScenario("capital-pushback");
    bench.addScenario(oneTurn("third"));
    await storage.saveBenchmark(bench);
    const loaded = await storage.loadBenchmark(bench.name);
    expect(loaded.getScenarios().map((s) => s.name)).toEqual(["second", "third"]);
    expect(loaded.serialize()).toBe(bench.serialize());
    const rows = await rawQuery(stores.url, "SELECT name FROM benchmark_scenarios ORDER BY position");
    expect(rows.map((row) => row.name)).toEqual(["second", "third"]);
  });

  test("the listing counts a benchmark's scenarios; a benchmark of questions has none", async () => {
    const storage = await open();
    const scenarios = await Benchmark.load(FIXTURE);
    scenarios.addScenario(oneTurn("second"));
    await storage.saveBenchmark(scenarios);
    const questions = Benchmark.create({ name: "questions" });
    questions.addQuestion("Capital of France?", "Paris", { questionId: "q1" });
    await storage.saveBenchmark(questions);
    const listed = await storage.listBenchmarks();
    expect(listed.map((b) => [b.name, b.questionCount, b.scenarioCount])).toEqual([
      ["capital-scenarios", 0, 2],
      ["questions", 1, 0],
    ]);
  });

  test("an incremental edit of a stored scenario benchmark keeps its scenarios, and writes one it adds", async () => {
    const storage = await open();
    const bench = await Benchmark.load(FIXTURE);
    await storage.saveBenchmark(bench);
    await storage.saveBenchmarkChanges(bench.name, (stored) => {
      stored.description = "edited";
      stored.addScenario(oneTurn("second"));
      return { changed: [], removed: [] };
    });
    const loaded = await storage.loadBenchmark(bench.name);
    expect(loaded.description).toBe("edited");
    expect(loaded.getScenarios().map((s) => s.name)).toEqual(["capital-pushback", "second"]);
  });

  test("deleting a scenario benchmark deletes its scenarios", async () => {
    const storage = await open();
    await storage.saveBenchmark(await Benchmark.load(FIXTURE));
    await storage.deleteBenchmark("capital-scenarios");
    expect(await rawQuery(stores.url, "SELECT name FROM benchmark_scenarios")).toEqual([]);
  });

  test("a stored scenario that no longer decodes fails the load, naming the benchmark, the field and the scenario", async () => {
    const storage = await open();
    const { id } = await storage.saveBenchmark(await Benchmark.load(FIXTURE));
    const [row] = await rawQuery(
      stores.url,
      `SELECT scenario_json FROM benchmark_scenarios WHERE benchmark_id = ${id}`,
    );
    const broken = jsonText(row?.scenario_json).replace('"BooleanMatch"', '"Nope"');
    await rawQuery(stores.url, `UPDATE benchmark_scenarios SET scenario_json = ${literal(broken)}`);
    const error = await storage.loadBenchmark("capital-scenarios").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ScenarioError);
    expect((error as Error).message).toBe(
      `${storage.database}: benchmark "capital-scenarios": $.hasPart[0].edges[0].condition.verify_with: ` +
        "scenario 'capital-pushback': Unknown primitive type: 'Nope', found an object",
    );
  });

  test("upgrading a version 10 database moves the scenarios stored in a benchmark's document into rows", async () => {
    const first = await open();
    const bench = await Benchmark.load(FIXTURE);
    bench.addScenario(oneTurn("second"));
    const { id } = await first.saveBenchmark(bench);
    await first.close();
    // What version 10 stored: the scenarios inside the benchmark's document, no table of their own.
    const [row] = await rawQuery(stores.url, `SELECT metadata_json FROM benchmarks WHERE id = ${id}`);
    const metadata = JSON.parse(jsonText(row?.metadata_json));
    metadata.checkpoint.hasPart = bench.toCheckpoint({ saveDeepJudgmentConfig: true }).hasPart;
    await rawQuery(stores.url, "DROP TABLE benchmark_scenarios");
    await rawQuery(stores.url, `UPDATE benchmarks SET metadata_json = ${literal(JSON.stringify(metadata))}`);
    await rawQuery(stores.url, "DELETE FROM karenina_migrations WHERE name >= '0011_benchmark_scenarios'");

    const upgraded = await open(stores.url);
    const loaded = await upgraded.loadBenchmark(bench.name);
    expect(loaded.serialize()).toBe(bench.serialize());
    const rows = await rawQuery(stores.url, "SELECT name FROM benchmark_scenarios ORDER BY position");
    expect(rows.map((r) => r.name)).toEqual(["capital-pushback", "second"]);
    expect((await upgraded.listBenchmarks())[0]?.scenarioCount).toBe(2);
  });

  test("a benchmark of questions with an empty hasPart keeps it", async () => {
    const storage = await open();
    const text = (await Benchmark.load(FIXTURE))
      .serialize()
      .replace(/"hasPart": \[[\s\S]*\n {2}\]/, '"hasPart": []');
    const bench = Benchmark.parse(text);
    bench.addQuestion("Capital of France?", "Paris", { questionId: "q1" });
    expect(bench.serialize()).toContain('"hasPart": []');
    await storage.saveBenchmark(bench);
    expect((await storage.loadBenchmark(bench.name)).serialize()).toBe(bench.serialize());
  });
});
