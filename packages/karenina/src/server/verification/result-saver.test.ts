import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Benchmark } from "../../benchmark/index.js";
import { richResult } from "../../storage/__fixtures__/results.js";
import { openStorage, type Storage } from "../../storage/index.js";
import { ResultSaver } from "./result-saver.js";

describe("ResultSaver", () => {
  let dir: string;
  let storage: Storage;
  let runId: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "karenina-result-saver-"));
    storage = await openStorage(join(dir, "karenina.db"));
    const bench = Benchmark.create({ name: "saver" });
    for (const id of ["q1", "q2", "q3"]) bench.addQuestion(`Question ${id}?`, "answer", { questionId: id });
    await storage.saveBenchmark(bench);
    runId = (await storage.startRun({ runName: "saver-run", benchmarkName: "saver" })).id;
  });

  afterEach(async () => {
    await storage.close();
    await rm(dir, { recursive: true, force: true });
  });

  const stored = async () => (await storage.loadResults({ runId })).map((r) => r.metadata.question_id).sort();

  it("gathers the results that finish within its window into one save, and saves them on flushed()", async () => {
    const saver = new ResultSaver(storage, runId, { gatherMs: 60_000 });
    for (const id of ["q1", "q2", "q3"]) saver.add(richResult({ questionId: id }));
    await new Promise((r) => setTimeout(r, 50));
    expect(await stored()).toEqual([]);
    await saver.flushed();
    expect(await stored()).toEqual(["q1", "q2", "q3"]);
  });

  it("saves without being flushed once its window has passed", async () => {
    const saver = new ResultSaver(storage, runId, { gatherMs: 20 });
    saver.add(richResult({ questionId: "q1" }));
    saver.add(richResult({ questionId: "q2" }));
    const deadline = Date.now() + 5000;
    while ((await stored()).length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(await stored()).toEqual(["q1", "q2"]);
    await saver.flushed();
  });

  it("throws the save's error from flushed()", async () => {
    const saver = new ResultSaver(storage, runId);
    saver.add(richResult({ questionId: "not-stored" }));
    await expect(saver.flushed()).rejects.toThrow(/results for question not in the database: "not-stored"/);
  });
});
