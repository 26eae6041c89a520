/**
 * A SQLite file holding one stored run of `count` full results (the storage tests' hand-written fixture, about
 * 6 kB of JSON each, not the output of any model), written through `Storage.saveResults` in batches of 1,000
 * as a run saves them. Shared by the benchmarks that need a big stored run (bench/web-results.ts).
 */
import { Benchmark, openStorage } from "../packages/karenina/src/index.js";
import { richResult } from "../packages/karenina/src/storage/__fixtures__/results.js";

const MODELS = ["gpt-4.1-mini", "claude-sonnet", "mistral-large"] as const;

/** Stores `count` results of 500 questions in one completed run named `runName`; returns the run id. */
export async function storeResults(dbFile: string, count: number, runName = "bench-100k"): Promise<string> {
  const questions = Array.from({ length: 500 }, (_, i) => `q${i}`);
  const bench = Benchmark.create({ name: "results-bench", version: "1.0.0" });
  for (const id of questions) bench.addQuestion(`Question ${id}?`, `Answer ${id}`, { questionId: id });
  const storage = await openStorage(dbFile);
  try {
    await storage.saveBenchmark(bench);
    const run = await storage.startRun({ runName, benchmarkName: "results-bench" });
    const started = performance.now();
    for (let start = 0; start < count; start += 1000) {
      const batch = Array.from({ length: Math.min(1000, count - start) }, (_, k) => {
        const index = start + k;
        const questionId = questions[index % questions.length] as string;
        return richResult({
          questionId,
          questionText: `What is the target of compound ${questionId}? (${index % 7 === 0 ? "oncology" : "other"})`,
          replicate: index + 1,
          passed: index % 3 !== 2,
          answeringModel: MODELS[index % MODELS.length],
        });
      });
      await storage.saveResults(run.id, batch);
    }
    await storage.finishRun(run.id, { status: "completed" });
    console.log(
      `stored ${count} results (batches of 1,000) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    return run.id;
  } finally {
    await storage.close();
  }
}
