import { rm } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { Benchmark } from "../benchmark/index.js";
import { ResultsFileError } from "../results/index.js";
import { tempDir } from "../storage/__fixtures__/databases.js";
import { manyResults } from "../storage/__fixtures__/results.js";
import { openStorage, type Storage } from "../storage/index.js";
import { importResultsAsRun, parseResultsText } from "./index.js";

const results = manyResults(["q1", "q2"], 4);
const runLog = results.map((result) => JSON.stringify(result)).join("\n");

describe("parseResultsText", () => {
  test("reads a run log, ignoring a last line cut short by a crash", () => {
    expect(parseResultsText(`${runLog}\n{"metadata": {"quest`, "run.jsonl")).toHaveLength(4);
  });

  test("reads a JSON results file (here the legacy array form)", () => {
    const text = JSON.stringify(results);
    expect(parseResultsText(text, "run.json").map((r) => r.metadata.result_id)).toEqual(
      results.map((r) => r.metadata.result_id),
    );
  });

  test("refuses a run log with a broken line in the middle, an empty file and another extension", () => {
    const lines = runLog.split("\n");
    const broken = [lines[0], "not json", ...lines.slice(1)].join("\n");
    expect(() => parseResultsText(broken, "run.jsonl")).toThrow(/line 2 is not JSON/);
    expect(() => parseResultsText("\n", "run.jsonl")).toThrow(ResultsFileError);
    expect(() => parseResultsText(runLog, "run.csv")).toThrow(/\.jsonl run log or a \.json/);
  });
});

describe("importResultsAsRun", () => {
  let storage: Storage | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await storage?.close();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  test("stores the results as an imported run under a new benchmark of their questions", async () => {
    dir = await tempDir();
    storage = await openStorage(join(dir, "view.db"));
    const imported = await importResultsAsRun(storage, results, {
      benchmarkName: "run.jsonl",
      runName: "viewed",
      sourceFilename: "run.jsonl",
    });
    expect(imported).toMatchObject({
      benchmarkName: "run.jsonl",
      runName: "viewed",
      imported: 4,
      skipped: 0,
    });
    const [run] = await storage.listRuns({});
    expect(run).toMatchObject({ id: imported.runId, isImported: true, benchmarkName: "run.jsonl" });
    expect(await storage.countResults({ runId: imported.runId })).toBe(4);
  });

  test("never changes an existing benchmark: the new one takes a free name", async () => {
    dir = await tempDir();
    storage = await openStorage(join(dir, "view.db"));
    const mine = Benchmark.create({ name: "run.jsonl" });
    mine.addQuestion("What is kept?", "Everything");
    await storage.saveBenchmark(mine);
    const imported = await importResultsAsRun(storage, results, { benchmarkName: "run.jsonl" });
    expect(imported.benchmarkName).toBe("run.jsonl (2)");
    const kept = (await storage.listBenchmarks()).find((b) => b.name === "run.jsonl");
    expect(kept?.questionCount).toBe(1);
  });
});
