import type { Benchmark } from "../benchmark/index.js";
import { KareninaError } from "../errors/index.js";
import type { ResultTableRow } from "../result-table/index.js";
import type { ResultSummary, VerificationResult } from "../results/index.js";
import {
  type DeletedBenchmark,
  type DuplicateQuestion,
  type DuplicateResolution,
  deleteBenchmark,
  findDuplicates,
  type MergedBenchmark,
  mergeIntoStored,
} from "./benchmark-admin.js";
import {
  type BenchmarkChangeSet,
  type SavedBenchmarkChanges,
  saveBenchmarkChanges,
} from "./benchmark-changes.js";
import {
  listBenchmarks,
  loadBenchmark,
  type SaveBenchmarkOptions,
  type SavedBenchmark,
  type StoredBenchmark,
  saveBenchmark,
  saveQuestions,
} from "./benchmarks.js";
import { connect } from "./connect.js";
import { inTransaction, type StorageContext } from "./context.js";
import { causeText, StorageOpenError, StorageQueryError } from "./errors.js";
import { type ImportOptions, type ImportOutcome, importVerificationResults } from "./import.js";
import {
  countJobs,
  createJob,
  getJob,
  interruptUnfinishedJobs,
  type JobChanges,
  type JobQuery,
  type JobRow,
  listJobs,
  type NewJob,
  updateJob,
} from "./jobs.js";
import { hasKareninaSchema, migrateToLatest } from "./migrations.js";
import { type DigestPage, loadResultDigestPage, readResultDigests } from "./result-digests.js";
import { readTableRows, tableRowCounts } from "./result-table-rows.js";
import {
  countResults,
  loadResults,
  type ResultQuery,
  type SaveResultsOptions,
  saveResults,
} from "./results.js";
import { deleteRunSummary, loadRunSummary, type StoredRunSummary, saveRunSummary } from "./run-summaries.js";
import {
  countRuns,
  deleteRun,
  type FinishRunOptions,
  finishRun,
  getRun,
  listRuns,
  lockRun,
  type RunFilter,
  type RunInfo,
  type RunQuery,
  recountRun,
  type StartRunOptions,
  startRun,
} from "./runs.js";
import { DEFAULT_DB_FILE, describeStorageUrl, isInMemory, parseStorageUrl } from "./url.js";

/**
 * A karenina database: benchmarks, verification runs and their results, in SQLite (one file, the default) or
 * PostgreSQL. Open one with {@link openStorage}; close it with {@link Storage.close}. Every write is one
 * transaction. Errors are {@link StorageError}s naming the database.
 * @example
 * const storage = await openStorage("sqlite:///doc-example.db");
 * const bench = Benchmark.create({ name: "Drug targets" });
 * bench.addQuestion("What is the putative target of venetoclax?", "BCL2");
 * await storage.saveBenchmark(bench);
 * const run = await storage.startRun({ runName: "nightly", benchmarkName: "Drug targets" });
 * run.status; // "running"
 * await storage.countResults({ runName: "nightly", passed: true }); // 0
 * (await storage.listBenchmarks())[0]?.questionCount; // 1
 * await storage.close();
 */
export class Storage {
  readonly #ctx: StorageContext;

  private constructor(ctx: StorageContext) {
    this.#ctx = ctx;
  }

  /**
   * Opens (creating or upgrading its schema when needed) the database at a URL or SQLite file path; with
   * `create: false`, only a karenina database that exists (see {@link OpenStorageOptions}).
   */
  static async open(url: string = DEFAULT_DB_FILE, options: OpenStorageOptions = {}): Promise<Storage> {
    const database = describeStorageUrl(url);
    const existingOnly = options.create === false;
    const target = parseStorageUrl(url);
    const { db, dialect } = await connect(target, database, { existingOnly });
    try {
      if (existingOnly && !(await hasKareninaSchema(db))) {
        throw new StorageOpenError(
          database,
          "not a karenina database (it has no karenina tables); nothing was changed. Check the URL, or give a database written by `karenina verify --db` or `karenina demo`",
        );
      }
      await migrateToLatest(db, dialect, database);
    } catch (error) {
      await db.destroy();
      if (KareninaError.isInstance(error)) throw error;
      throw new StorageOpenError(database, `cannot read the database: ${causeText(error)}`, { cause: error });
    }
    const sqliteFile = target.dialect === "sqlite" && !isInMemory(target.file) ? target.file : undefined;
    return new Storage({ db, dialect, database, ...(sqliteFile === undefined ? {} : { sqliteFile }) });
  }

  /** The database as messages name it (a PostgreSQL password masked). */
  get database(): string {
    return this.#ctx.database;
  }

  /** `sqlite` or `postgres`. */
  get dialect(): "sqlite" | "postgres" {
    return this.#ctx.dialect.name;
  }

  /** Runs an operation; a failure of the database itself becomes a {@link StorageQueryError}. */
  async #run<T>(operation: string, work: (ctx: StorageContext) => Promise<T>): Promise<T> {
    try {
      return await work(this.#ctx);
    } catch (error) {
      if (KareninaError.isInstance(error)) throw error;
      throw new StorageQueryError(this.#ctx.database, operation, error);
    }
  }

  /**
   * Edits a stored benchmark incrementally in one transaction: `edit` changes the loaded benchmark and names
   * the questions it changed or removed; only their rows (and the benchmark row) are written.
   */
  saveBenchmarkChanges<T extends BenchmarkChangeSet>(
    name: string,
    edit: (bench: Benchmark) => T | Promise<T>,
  ): Promise<SavedBenchmarkChanges<T>> {
    return this.#run("saveBenchmarkChanges", (ctx) => saveBenchmarkChanges(ctx, name, edit));
  }

  /**
   * Saves a benchmark under its name (replacing what was stored under that name): questions, templates,
   * finished flags, keywords, rubrics and metadata.
   */
  saveBenchmark(bench: Benchmark, options?: SaveBenchmarkOptions): Promise<SavedBenchmark> {
    return this.#run("saveBenchmark", (ctx) => saveBenchmark(ctx, bench, options));
  }

  /**
   * Stores the questions of `bench` without the benchmark (no membership): what rows of questions no stored
   * benchmark lists (a scenario run's turns) need. Returns how many.
   */
  saveQuestions(bench: Benchmark): Promise<number> {
    return this.#run("saveQuestions", (ctx) => saveQuestions(ctx, bench));
  }

  /**
   * Rebuilds a stored benchmark; it saves to the same checkpoint as the one stored.
   * @throws {StorageNotFoundError} when no benchmark has that name.
   */
  loadBenchmark(name: string, options?: { workspaceRoot?: string | null }): Promise<Benchmark> {
    return this.#run("loadBenchmark", (ctx) => loadBenchmark(ctx, name, options));
  }

  /**
   * The questions of `bench` that the benchmark stored under its name holds with other content (spec 06 §4.4
   * `detectDuplicatesOnly`); nothing is written.
   */
  findDuplicates(bench: Benchmark): Promise<DuplicateQuestion[]> {
    return this.#run("findDuplicates", (ctx) => findDuplicates(ctx, bench));
  }

  /**
   * `bench` merged into the benchmark stored under its name, each duplicate resolved as `resolutions` says
   * (default `keep_new`); nothing is written (save the result with {@link Storage.saveBenchmark}).
   */
  mergeIntoStored(
    bench: Benchmark,
    resolutions: Readonly<Record<string, DuplicateResolution>> = {},
  ): Promise<MergedBenchmark> {
    return this.#run("mergeIntoStored", (ctx) => mergeIntoStored(ctx, bench, resolutions));
  }

  /**
   * Deletes a stored benchmark with its runs and results, and the question rows nothing else uses.
   * @throws {StorageNotFoundError} when no benchmark has that name.
   */
  deleteBenchmark(name: string): Promise<DeletedBenchmark> {
    return this.#run("deleteBenchmark", (ctx) => deleteBenchmark(ctx, name));
  }

  /** Every stored benchmark, by name. */
  listBenchmarks(): Promise<StoredBenchmark[]> {
    return this.#run("listBenchmarks", listBenchmarks);
  }

  /** Starts (or, for a stored run id, resumes) a run of a stored benchmark; see {@link StartRunOptions}. */
  startRun(options: StartRunOptions): Promise<RunInfo> {
    return this.#run("startRun", (ctx) => startRun(ctx, options));
  }

  /**
   * Saves results of a run as they come; saving a result again replaces it (same run and `result_id`), so a
   * resumed run stores nothing twice. The run's counts follow.
   */
  saveResults(
    runId: string,
    results: readonly VerificationResult[],
    options?: SaveResultsOptions,
  ): Promise<{ saved: number }> {
    return this.#run("saveResults", (ctx) => saveResults(ctx, runId, results, options));
  }

  /**
   * Sets a run's counts from its stored results (what each {@link Storage.saveResults} does unless told not
   * to, and {@link Storage.finishRun} does always).
   * @throws {StorageNotFoundError} for an unknown run.
   */
  recountRun(runId: string): Promise<void> {
    return this.#run("recountRun", (ctx) =>
      inTransaction(ctx, async (tx) => {
        await lockRun(tx, runId);
        await recountRun(tx, runId);
      }),
    );
  }

  /** Marks a run completed, failed or cancelled, with an optional summary and error message. */
  finishRun(runId: string, options: FinishRunOptions): Promise<RunInfo> {
    return this.#run("finishRun", (ctx) => finishRun(ctx, runId, options));
  }

  /** A stored run, or null. */
  getRun(runId: string): Promise<RunInfo | null> {
    return this.#run("getRun", (ctx) => getRun(ctx, runId));
  }

  /** Stored runs, newest first, optionally of one benchmark or status, a page at a time. */
  listRuns(query?: RunQuery): Promise<RunInfo[]> {
    return this.#run("listRuns", (ctx) => listRuns(ctx, query));
  }

  /** How many stored runs match the filter: the total of `listRuns`' pages. */
  countRuns(filter?: RunFilter): Promise<number> {
    return this.#run("countRuns", (ctx) => countRuns(ctx, filter));
  }

  /** Stored results matching a query, exactly as saved, in saving order (stable for paging). */
  loadResults(query?: ResultQuery): Promise<VerificationResult[]> {
    return this.#run("loadResults", (ctx) => loadResults(ctx, query));
  }

  /**
   * The digests (`resultDigest`: what `summarizeResults` and `compareRuns` read) of the stored results matching
   * a query, in saving order: `query.limit` of them after row `after` (0 for the first page; then the page's
   * `after`, until it is null). Rows saved by this karenina were validated then and are not validated again;
   * older rows are read whole and validated.
   */
  loadResultDigestPage(query: ResultQuery, after = 0): Promise<DigestPage> {
    return this.#run("loadResultDigestPage", (ctx) => loadResultDigestPage(ctx, query, after));
  }

  /**
   * Every digest (as {@link loadResultDigestPage}) of the stored results matching a query (its `limit` and
   * `offset` ignored), in saving order, `pageSize` at a time; reading the next page overlaps the caller's work
   * on this one (a SQLite file is read by a thread of its own). Stop early with `break`.
   * @throws {StorageQueryError} when the database fails
   */
  async *readResultDigests(query: ResultQuery, pageSize = 2_000): AsyncGenerator<VerificationResult[]> {
    try {
      yield* readResultDigests(this.#ctx, query, pageSize);
    } catch (error) {
      if (KareninaError.isInstance(error)) throw error;
      throw new StorageQueryError(this.#ctx.database, "readResultDigests", error);
    }
  }

  /**
   * The results-table rows (spec 07 §1.6, `resultTableRow`) of every result of the runs, in saving order; rows
   * of results saved by an older karenina are computed from the whole result once and kept.
   */
  readResultTableRows(runIds: readonly string[]): Promise<ResultTableRow[]> {
    return this.#run("readResultTableRows", (ctx) => readTableRows(ctx, runIds));
  }

  /**
   * How many results the runs hold and how many table rows are stored for them: a cache of the runs' table
   * rows is current while both stay as they were when it was read (both counts come from indexes).
   */
  countResultTableRows(runIds: readonly string[]): Promise<{ results: number; tableRows: number }> {
    return this.#run("countResultTableRows", (ctx) => tableRowCounts(ctx, runIds));
  }

  /** How many stored results match a query. */
  countResults(query?: ResultQuery): Promise<number> {
    return this.#run("countResults", (ctx) => countResults(ctx, query));
  }

  /**
   * Imports a JSON results export (format 2.0 to 2.2; text or parsed) into a new completed run of a stored
   * benchmark. Results of questions the benchmark does not hold are skipped and counted.
   */
  importVerificationResults(input: string | object, options: ImportOptions): Promise<ImportOutcome> {
    return this.#run("importVerificationResults", (ctx) => importVerificationResults(ctx, input, options));
  }

  /** Deletes a run with its results; false when there was none. */
  deleteRun(runId: string): Promise<boolean> {
    return this.#run("deleteRun", (ctx) => deleteRun(ctx, runId));
  }

  /**
   * Stores `summary` (`summarizeResults` of the run's `resultCount` results, in saving order) as the summary
   * of a finished run; false, and nothing stored, when the run is not finished or holds another number of
   * results. {@link Storage.loadRunSummary} returns it while the run stays as it was.
   */
  saveRunSummary(runId: string, summary: ResultSummary, resultCount: number): Promise<boolean> {
    return this.#run("saveRunSummary", (ctx) => saveRunSummary(ctx, runId, summary, resultCount));
  }

  /**
   * A run's stored summary, or null when none is stored or it no longer describes the run: written by another
   * summary format, or results were saved, replaced or deleted since.
   */
  loadRunSummary(runId: string): Promise<StoredRunSummary | null> {
    return this.#run("loadRunSummary", (ctx) => loadRunSummary(ctx, runId));
  }

  /** Deletes a run's stored summary, so the next summary of the run is computed; false when there was none. */
  deleteRunSummary(runId: string): Promise<boolean> {
    return this.#run("deleteRunSummary", (ctx) => deleteRunSummary(ctx, runId));
  }

  /** Stores a new server job, `pending` (spec 07 §2.4). */
  createJob(job: NewJob): Promise<JobRow> {
    return this.#run("createJob", (ctx) => createJob(ctx, job));
  }

  /** A stored server job, or null. */
  getJob(id: string): Promise<JobRow | null> {
    return this.#run("getJob", (ctx) => getJob(ctx, id));
  }

  /** Changes a stored server job. @throws {StorageNotFoundError} for an unknown job. */
  updateJob(id: string, changes: JobChanges): Promise<void> {
    return this.#run("updateJob", (ctx) => updateJob(ctx, id, changes));
  }

  /** Stored server jobs, newest first, optionally of one kind or status, a page at a time. */
  listJobs(query?: JobQuery): Promise<JobRow[]> {
    return this.#run("listJobs", (ctx) => listJobs(ctx, query));
  }

  /** How many stored server jobs match a query. */
  countJobs(query?: JobQuery): Promise<number> {
    return this.#run("countJobs", (ctx) => countJobs(ctx, query));
  }

  /** Marks `interrupted` the jobs of `kinds` left pending or running by a server that died; their ids. */
  interruptUnfinishedJobs(kinds: readonly string[]): Promise<string[]> {
    return this.#run("interruptUnfinishedJobs", (ctx) => interruptUnfinishedJobs(ctx, kinds));
  }

  /** Closes the connection (SQLite: the file; PostgreSQL: the pool). */
  async close(): Promise<void> {
    await this.#ctx.db.destroy();
  }
}

/** How {@link openStorage} opens a database. */
export interface OpenStorageOptions {
  /**
   * `false` for a command that only reads: a SQLite file that does not exist is an error instead of a new
   * database, and a database without karenina's tables (an empty PostgreSQL database, another program's
   * SQLite file) is refused unchanged instead of getting them. An older karenina schema is still upgraded.
   * Default `true`.
   */
  create?: boolean;
}

/**
 * Opens a karenina database, creating its tables when it is new and upgrading an older schema; data already
 * stored is never dropped or rewritten. With `{ create: false }` it opens only an existing karenina database.
 * @param url a SQLite file path (`karenina.db`, the default), `sqlite:///relative.db`, `sqlite:////abs.db`,
 * or `postgres://user:password@host:5432/db` (also `postgresql://`).
 * @throws {StorageOpenError} when the URL is not supported, the file is not a SQLite database, its directory is
 * missing or the server cannot be reached (the message names the URL, password masked, and the cause);
 * {@link StorageSchemaError} when the schema is newer than this version understands.
 * @example
 * const storage = await openStorage(DEFAULT_DB_FILE);
 * storage.dialect; // "sqlite"
 * await storage.close();
 */
export function openStorage(
  url: string = DEFAULT_DB_FILE,
  options: OpenStorageOptions = {},
): Promise<Storage> {
  return Storage.open(url, options);
}
