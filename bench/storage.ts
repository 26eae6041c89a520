/**
 * Storage throughput: results saved and read per second, SQLite (a file) and PostgreSQL.
 *
 *   npm run bench:storage                              # 20,000 results into a SQLite file
 *   npm run bench:storage -- --results 50000 --batch 1
 *   npm run bench:storage -- --pg postgres://user:pass@127.0.0.1:5432/db   # also PostgreSQL (an empty database)
 *
 * Saves the results in batches (`--batch`, default 50: what `verify --db` commits at a time when results
 * finish faster than a save), then reads them all back in pages of 1,000 and counts the failed ones. Every
 * result is a full one (template, rubric of every kind, both deep-judgment sections: about 6 kB of JSON), made by
 * the storage tests' fixture, so the figures are per realistic row. Prints the rates and, as the ratio that
 * matters for a run, the storage time per result against a 1 s LLM call.
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { Benchmark, openStorage, type VerificationResult } from "../packages/karenina/src/index.js";
import { manyResults } from "../packages/karenina/src/storage/__fixtures__/results.js";

const { values } = parseArgs({
  options: {
    results: { type: "string", default: "20000" },
    batch: { type: "string", default: "50" },
    pg: { type: "string" },
  },
});
const count = Number(values.results);
const batch = Number(values.batch);

function benchmarkOf(questions: readonly string[]): Benchmark {
  const bench = Benchmark.create({ name: "storage-bench", version: "1.0.0" });
  for (const id of questions) bench.addQuestion(`Question ${id}?`, `Answer ${id}`, { questionId: id });
  return bench;
}

async function measure(
  label: string,
  url: string,
  results: readonly VerificationResult[],
  questions: string[],
) {
  const storage = await openStorage(url);
  try {
    await storage.saveBenchmark(benchmarkOf(questions));
    const run = await storage.startRun({ runName: `bench-${Date.now()}`, benchmarkName: "storage-bench" });
    const saveStart = performance.now();
    for (let start = 0; start < results.length; start += batch) {
      await storage.saveResults(run.id, results.slice(start, start + batch));
    }
    const saveMs = performance.now() - saveStart;
    const readStart = performance.now();
    let read = 0;
    for (let offset = 0; ; offset += 1000) {
      const page = await storage.loadResults({ runId: run.id, limit: 1000, offset });
      read += page.length;
      if (page.length < 1000) break;
    }
    const failed = await storage.countResults({ runId: run.id, passed: false });
    const readMs = performance.now() - readStart;
    const perResultMs = saveMs / results.length;
    console.log(
      `${label}: saved ${results.length} results in batches of ${batch}: ${(results.length / (saveMs / 1000)).toFixed(0)} results/s ` +
        `(${perResultMs.toFixed(3)} ms each, ${((100 * perResultMs) / 1000).toFixed(3)}% of a 1 s LLM call); ` +
        `read back ${read} in pages of 1,000: ${(read / (readMs / 1000)).toFixed(0)} results/s; ${failed} failed`,
    );
  } finally {
    await storage.close();
  }
}

const questions = Array.from({ length: 500 }, (_, index) => `q${index}`);
const results = manyResults(questions, count);
const jsonKb = JSON.stringify(results[0]).length / 1024;
console.log(`${count} results of about ${jsonKb.toFixed(1)} kB of JSON each`);

const dir = mkdtempSync(join(tmpdir(), "karenina-bench-storage-"));
try {
  const file = join(dir, "bench.db");
  await measure("SQLite", file, results, questions);
  console.log(`SQLite file: ${(statSync(file).size / 1024 / 1024).toFixed(1)} MB`);
  if (values.pg !== undefined) await measure("PostgreSQL", values.pg, results, questions);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
