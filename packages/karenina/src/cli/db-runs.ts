import type { Benchmark } from "../benchmark/index.js";
import {
  dumpVerificationConfig,
  type RunSummary,
  type ScenarioRunSummary,
  type VerificationConfig,
} from "../pipeline/index.js";
import { createSummaryAccumulator, type VerificationResult } from "../results/index.js";
import {
  openStorage,
  type RunInfo,
  type Storage,
  StorageNotFoundError,
  TurnQuestions,
} from "../storage/index.js";
import type { LoadedResults } from "./results-report.js";

/**
 * Saves a run into a database as it goes: the benchmark first, then the run row when the run starts (its id is
 * the run name, so `--resume` continues the same stored run), then each result as it finishes (group commit:
 * results that finish while a save is in flight are saved together next). The run log stays the primary
 * record; a failed save stops saving and is reported by {@link DbRunSink.finish}, losing nothing from the log.
 */
export class DbRunSink {
  readonly #storage: Storage;
  readonly #benchmark: Benchmark;
  readonly #config: VerificationConfig;
  #runId: string | null = null;
  #chain: Promise<void> = Promise.resolve();
  #buffer: VerificationResult[] = [];
  #flushQueued = false;
  #error: unknown = null;
  // The summary of the rows saved, in saving order, stored with the finished run. A result saved twice keeps
  // its first row (and place), so then the summary is not stored; a resumed run holds rows saved before, which
  // the count check of saveRunSummary refuses.
  readonly #summary = createSummaryAccumulator();
  readonly #savedIds = new Set<string>();
  #savedTwice = false;
  /** A scenario run's turns: their questions are stored before their rows (no stored benchmark lists them). */
  readonly #turnQuestions: TurnQuestions | null;

  private constructor(storage: Storage, benchmark: Benchmark, config: VerificationConfig) {
    this.#storage = storage;
    this.#benchmark = benchmark;
    this.#config = config;
    this.#turnQuestions = benchmark.isScenarioBenchmark ? new TurnQuestions(storage, benchmark) : null;
  }

  /** Saves the benchmark (so a database that cannot take it fails before any model is called). */
  static async open(storage: Storage, benchmark: Benchmark, config: VerificationConfig): Promise<DbRunSink> {
    await storage.saveBenchmark(benchmark);
    return new DbRunSink(storage, benchmark, config);
  }

  /** Where the run goes, for messages. */
  get database(): string {
    return this.#storage.database;
  }

  /** Starts (or resumes) the stored run named like the run. */
  start(runName: string): void {
    this.#enqueue(async () => {
      const run = await this.#storage.startRun({
        runId: runName,
        runName,
        benchmarkName: this.#benchmark.name,
        config: dumpVerificationConfig(this.#config),
        totalQuestions: this.#benchmark.size,
      });
      this.#runId = run.id;
    });
  }

  /** Queues a finished result; saved with the others that finish before the next save starts. */
  add(result: VerificationResult): void {
    this.#buffer.push(result);
    if (this.#flushQueued) return;
    this.#flushQueued = true;
    this.#enqueue(async () => {
      this.#flushQueued = false;
      const batch = this.#buffer.splice(0);
      if (this.#runId === null || batch.length === 0) return;
      await this.#turnQuestions?.store(batch);
      await this.#storage.saveResults(this.#runId, batch);
      this.#summarizeSaved(batch);
    });
  }

  /**
   * Waits for every queued save, then marks the run completed or cancelled.
   * @throws the first error of a save, after the run log has everything.
   */
  async finish(summary: RunSummary | ScenarioRunSummary): Promise<RunInfo | null> {
    let finished: RunInfo | null = null;
    this.#enqueue(async () => {
      if (this.#runId === null) return;
      finished = await this.#storage.finishRun(this.#runId, {
        status: summary.aborted ? "cancelled" : "completed",
        summary,
      });
      if (!this.#savedTwice)
        // The stored summary saves the first summary request reading the run; if it cannot be stored, that
        // request computes it, so a failure here is not the run's.
        await this.#storage
          .saveRunSummary(this.#runId, this.#summary.finish(), this.#summary.count)
          .catch(() => false);
    });
    await this.#chain;
    if (this.#error !== null) throw this.#error;
    return finished;
  }

  #summarizeSaved(batch: readonly VerificationResult[]): void {
    for (const result of batch) {
      const id = result.metadata.result_id;
      if (this.#savedIds.has(id)) this.#savedTwice = true;
      this.#savedIds.add(id);
    }
    if (!this.#savedTwice) this.#summary.add(batch);
  }

  #enqueue(work: () => Promise<void>): void {
    this.#chain = this.#chain.then(async () => {
      if (this.#error !== null) return;
      try {
        await work();
      } catch (error) {
        this.#error = error;
      }
    });
  }
}

/** A stored run by id, or else by name (the newest of that name). */
export async function findRun(storage: Storage, idOrName: string): Promise<RunInfo> {
  const byId = await storage.getRun(idOrName);
  if (byId !== null) return byId;
  const [newest] = await storage.listRuns({ runName: idOrName, limit: 1 });
  if (newest !== undefined) return newest;
  throw new StorageNotFoundError(
    storage.database,
    "run",
    idOrName,
    `by id or name; list the runs with: karenina results --db ${storage.database}`,
  );
}

/** A stored run's results, in the shape `karenina results` summarises. */
export async function loadStoredRun(storage: Storage, idOrName: string): Promise<LoadedResults> {
  const run = await findRun(storage, idOrName);
  const results = await storage.loadResults({ runId: run.id });
  return {
    file: `${storage.database} run ${run.runName}`,
    format: "db",
    kind: `database run (${run.benchmarkName}, ${run.status})`,
    results,
    notes: [],
    skippedLines: 0,
  };
}

/**
 * Opens an existing database for a command that only reads it, and closes it whatever happens. A database
 * that does not exist, or has no karenina tables, is an error: a reader never creates one.
 */
export async function withStorage<T>(url: string, work: (storage: Storage) => Promise<T>): Promise<T> {
  const storage = await openStorage(url, { create: false });
  try {
    return await work(storage);
  } finally {
    await storage.close();
  }
}
