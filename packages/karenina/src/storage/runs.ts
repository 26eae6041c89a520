import { randomUUID } from "node:crypto";
import type { Selectable } from "kysely";
import { describeValue } from "../errors/index.js";
import { benchmarkId } from "./benchmarks.js";
import { inTransaction, nowIso, type StorageContext } from "./context.js";
import { StorageInputError, StorageNotFoundError } from "./errors.js";
import { jsonOrNull, type VerificationRunsTable } from "./schema.js";

/** The states of a run (spec 06 §4.2). */
export const RUN_STATUSES = ["pending", "running", "completed", "failed", "cancelled"] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/** The states a run can finish in. */
export const FINAL_RUN_STATUSES = ["completed", "failed", "cancelled"] as const;
export type FinalRunStatus = (typeof FINAL_RUN_STATUSES)[number];

/** Options of {@link startRun}. */
export interface StartRunOptions {
  /** Defaults to a new UUID. Starting a run id that exists resumes it (see {@link startRun}). */
  readonly runId?: string;
  readonly runName: string;
  /** A benchmark already saved with `saveBenchmark`. */
  readonly benchmarkName: string;
  /** The run's configuration, stored as JSON (pass it with API keys masked, e.g. `dumpVerificationConfig`). */
  readonly config?: unknown;
  /** How many questions the run plans to verify, when known. */
  readonly totalQuestions?: number | null;
}

/** How a run ended, for {@link finishRun}. */
export interface FinishRunOptions {
  readonly status: FinalRunStatus;
  /** Summary statistics to keep with the run (any JSON). */
  readonly summary?: unknown;
  readonly errorMessage?: string | null;
}

/** Which runs {@link countRuns} counts. */
export interface RunFilter {
  readonly benchmarkName?: string;
  /** The run's name (as given to `startRun`); several runs may share one. */
  readonly runName?: string;
  readonly status?: RunStatus;
}

/** Which runs {@link listRuns} lists, newest first: a filter, and a page of it (in SQL). */
export interface RunQuery extends RunFilter {
  readonly limit?: number;
  readonly offset?: number;
}

/** A stored run. Counts are of the results saved so far; "successful" means finished without a failure. */
export interface RunInfo {
  readonly id: string;
  readonly runName: string;
  readonly benchmarkName: string;
  readonly status: RunStatus;
  readonly config: unknown;
  readonly totalQuestions: number | null;
  readonly processedCount: number;
  readonly successfulCount: number;
  readonly failedCount: number;
  readonly startTime: string;
  readonly endTime: string | null;
  readonly errorMessage: string | null;
  readonly summary: unknown;
  readonly createdAt: string;
  readonly updatedAt: string;
  /** The run was created by a results import (`importVerificationResults`), not by running a verification. */
  readonly isImported: boolean;
}

type RunRow = Selectable<VerificationRunsTable> & { benchmark_name: string };

const parseJson = (text: string | null): unknown => (text === null ? null : JSON.parse(text));

function runInfo(row: RunRow): RunInfo {
  return {
    id: row.id,
    runName: row.run_name,
    benchmarkName: row.benchmark_name,
    status: row.status as RunStatus,
    config: parseJson(row.config),
    totalQuestions: row.total_questions,
    processedCount: row.processed_count,
    successfulCount: row.successful_count,
    failedCount: row.failed_count,
    startTime: row.start_time,
    endTime: row.end_time,
    errorMessage: row.error_message,
    summary: parseJson(row.summary_stats),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    isImported: Boolean(row.is_imported),
  };
}

/** The runs of the benchmarks joined as `b`, narrowed by a filter. */
function filteredRuns(ctx: StorageContext, filter: RunFilter) {
  let select = ctx.db
    .selectFrom("verification_runs as runs")
    .innerJoin("benchmarks as b", "b.id", "runs.benchmark_id");
  if (filter.benchmarkName !== undefined) select = select.where("b.name", "=", filter.benchmarkName);
  if (filter.status !== undefined) select = select.where("runs.status", "=", filter.status);
  if (filter.runName !== undefined) select = select.where("runs.run_name", "=", filter.runName);
  return select;
}

/** The rows of the runs matching a filter, with their benchmark's name. */
function runsQuery(ctx: StorageContext, filter: RunFilter = {}) {
  return filteredRuns(ctx, filter).selectAll("runs").select("b.name as benchmark_name");
}

/** A stored run, or null. */
export async function getRun(ctx: StorageContext, runId: string): Promise<RunInfo | null> {
  const row = await runsQuery(ctx).where("runs.id", "=", runId).executeTakeFirst();
  return row ? runInfo(row) : null;
}

/** A stored run. @throws {StorageNotFoundError} */
export async function requireRun(ctx: StorageContext, runId: string): Promise<RunInfo> {
  const run = await getRun(ctx, runId);
  if (!run) throw new StorageNotFoundError(ctx.database, "run", runId);
  return run;
}

/** Fields of a run row a (re)start sets. */
function startFields(options: StartRunOptions, now: string) {
  return {
    run_name: options.runName,
    status: "running",
    config: jsonOrNull(options.config),
    total_questions: options.totalQuestions ?? null,
    end_time: null,
    error_message: null,
    updated_at: now,
  };
}

/**
 * Starts a run of a stored benchmark, with status `running`. Starting a run id that is already stored
 * resumes it: status back to `running`, name, config and planned total replaced, its results kept.
 * @throws {StorageNotFoundError} for an unknown benchmark; {@link StorageInputError} when the run id is
 * stored for another benchmark.
 */
export async function startRun(ctx: StorageContext, options: StartRunOptions): Promise<RunInfo> {
  const runId = options.runId ?? randomUUID();
  const now = nowIso();
  await inTransaction(ctx, async (tx) => {
    const benchmark = await benchmarkId(tx, options.benchmarkName);
    const stored = await getRun(tx, runId);
    if (stored && stored.benchmarkName !== options.benchmarkName) {
      throw new StorageInputError(
        ctx.database,
        `run ${JSON.stringify(runId)} belongs to benchmark ${JSON.stringify(stored.benchmarkName)}, ` +
          `not ${JSON.stringify(options.benchmarkName)}; start it with its own benchmark or use a new run id`,
      );
    }
    if (stored) {
      await tx.db
        .updateTable("verification_runs")
        .set(startFields(options, now))
        .where("id", "=", runId)
        .execute();
      return;
    }
    await tx.db
      .insertInto("verification_runs")
      .values({
        id: runId,
        benchmark_id: benchmark,
        ...startFields(options, now),
        processed_count: 0,
        successful_count: 0,
        failed_count: 0,
        start_time: now,
        created_at: now,
        is_imported: ctx.dialect.bool(false),
      })
      .execute();
  });
  return requireRun(ctx, runId);
}

function checkFinalStatus(ctx: StorageContext, status: unknown): FinalRunStatus {
  if ((FINAL_RUN_STATUSES as readonly unknown[]).includes(status)) return status as FinalRunStatus;
  throw new StorageInputError(
    ctx.database,
    `finishRun: status: expected one of ${FINAL_RUN_STATUSES.join(", ")}, found ${describeValue(status)}`,
  );
}

/**
 * Marks a run finished: its status, end time, summary and error message.
 * @throws {StorageNotFoundError} for an unknown run; {@link StorageInputError} for another status.
 */
export async function finishRun(
  ctx: StorageContext,
  runId: string,
  options: FinishRunOptions,
): Promise<RunInfo> {
  const status = checkFinalStatus(ctx, options.status);
  const now = nowIso();
  // Savers that skipped the recount (see `SaveResultsOptions.recount`) leave it to the end.
  if ((await getRun(ctx, runId)) !== null)
    await inTransaction(ctx, async (tx) => {
      await lockRun(tx, runId);
      await recountRun(tx, runId);
    });
  const updated = await ctx.db
    .updateTable("verification_runs")
    .set({
      status,
      end_time: now,
      summary_stats: jsonOrNull(options.summary),
      error_message: options.errorMessage ?? null,
      updated_at: now,
    })
    .where("id", "=", runId)
    .executeTakeFirst();
  if (updated.numUpdatedRows === 0n) throw new StorageNotFoundError(ctx.database, "run", runId);
  return requireRun(ctx, runId);
}

/** How many stored runs match the filter (the total of {@link listRuns}' pages). */
export async function countRuns(ctx: StorageContext, filter: RunFilter = {}): Promise<number> {
  const row = await filteredRuns(ctx, filter)
    .select((eb) => eb.fn.countAll<number | string | bigint>().as("count"))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Stored runs, newest first (ties by id, so pages never overlap); `limit` and `offset` page in SQL. */
export async function listRuns(ctx: StorageContext, query: RunQuery = {}): Promise<RunInfo[]> {
  let select = runsQuery(ctx, query).orderBy("runs.created_at", "desc").orderBy("runs.id", "desc");
  if (query.limit !== undefined || query.offset !== undefined) {
    select = select.limit(query.limit ?? Number.MAX_SAFE_INTEGER).offset(query.offset ?? 0);
  }
  return (await select.execute()).map(runInfo);
}

/** Deletes a run with its results and import record; false when there was no such run. */
export async function deleteRun(ctx: StorageContext, runId: string): Promise<boolean> {
  const deleted = await ctx.db.deleteFrom("verification_runs").where("id", "=", runId).executeTakeFirst();
  return deleted.numDeletedRows > 0n;
}

/**
 * Recounts a run's results into its row (idempotent: re-saved results are not counted twice). Call inside the
 * transaction that saved them, after {@link lockRun}.
 */
export async function recountRun(ctx: StorageContext, runId: string): Promise<void> {
  const counts = await ctx.db
    .selectFrom("verification_results")
    .select((eb) => [
      eb.fn.countAll<number>().as("processed"),
      eb.fn
        .countAll<number>()
        .filterWhere("completed_without_errors", "=", ctx.dialect.bool(true))
        .as("successful"),
    ])
    .where("run_id", "=", runId)
    .executeTakeFirstOrThrow();
  const processed = Number(counts.processed);
  const successful = Number(counts.successful);
  await ctx.db
    .updateTable("verification_runs")
    .set({ processed_count: processed, successful_count: successful, failed_count: processed - successful })
    .where("id", "=", runId)
    .execute();
}

/**
 * Touches a run's row first thing in a transaction that writes its results: PostgreSQL then holds the row
 * lock, so concurrent savers of one run recount in turn and never from a stale count.
 * @throws {StorageNotFoundError} for an unknown run.
 */
export async function lockRun(ctx: StorageContext, runId: string): Promise<void> {
  const touched = await ctx.db
    .updateTable("verification_runs")
    .set({ updated_at: nowIso() })
    .where("id", "=", runId)
    .executeTakeFirst();
  if (touched.numUpdatedRows === 0n) {
    throw new StorageNotFoundError(ctx.database, "run", runId, "start it with startRun first");
  }
}
