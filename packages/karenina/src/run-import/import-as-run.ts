import { Benchmark } from "../benchmark/index.js";
import type { VerificationResult } from "../results/index.js";
import type { ImportOutcome, Storage } from "../storage/index.js";

/** Options of {@link importResultsAsRun}. */
export interface ImportAsRunOptions {
  /** The benchmark the results are filed under; a free name is picked when one is taken (`name (2)`). */
  readonly benchmarkName: string;
  readonly runName?: string;
  /** The file the results came from: recorded with the run. */
  readonly sourceFilename?: string;
}

/** What {@link importResultsAsRun} stored: the run and the benchmark it went under. */
export interface ImportedRun extends ImportOutcome {
  readonly benchmarkName: string;
}

/** Said where a question's reference answer would be: a results file does not carry it. */
const NO_REFERENCE = "(not in the results file)";

async function freeBenchmarkName(storage: Storage, wanted: string): Promise<string> {
  const taken = new Set((await storage.listBenchmarks()).map((stored) => stored.name));
  let name = wanted;
  for (let n = 2; taken.has(name); n++) name = `${wanted} (${n})`;
  return name;
}

/** A benchmark holding the questions the results answer (ids and texts as in the results). */
function benchmarkOfResults(name: string, results: readonly VerificationResult[]): Benchmark {
  const bench = Benchmark.create({ name, description: "The questions of an imported results file" });
  const added = new Set<string>();
  for (const { metadata } of results) {
    if (added.has(metadata.question_id)) continue;
    added.add(metadata.question_id);
    bench.addQuestion({
      question: metadata.question_text,
      raw_answer: NO_REFERENCE,
      question_id: metadata.question_id,
    });
  }
  return bench;
}

/**
 * Stores results read from a file (a run log or an export) as a new imported run of a new benchmark made of
 * their questions: a run the web app can open like any stored run. An existing benchmark is never changed:
 * the new one takes a free name.
 */
export async function importResultsAsRun(
  storage: Storage,
  results: readonly VerificationResult[],
  options: ImportAsRunOptions,
): Promise<ImportedRun> {
  const benchmarkName = await freeBenchmarkName(storage, options.benchmarkName);
  await storage.saveBenchmark(benchmarkOfResults(benchmarkName, results));
  const outcome = await storage.importVerificationResults(
    { format_version: "2.2", metadata: {}, results },
    {
      benchmarkName,
      ...(options.runName === undefined ? {} : { runName: options.runName }),
      ...(options.sourceFilename === undefined ? {} : { sourceFilename: options.sourceFilename }),
    },
  );
  return { ...outcome, benchmarkName };
}
