import { type OnConflictBuilder, type QueryCreator, sql } from "kysely";
import type { VerificationResult } from "../results/index.js";
import { chunks, inTransaction, nowIso, type StorageContext } from "./context.js";
import { StorageInputError } from "./errors.js";
import { digestRow, REPLACED_COLUMNS, resultOfRow, resultRow } from "./result-rows.js";
import { replaceTableRow, saveTableRows, tableRowOf } from "./result-table-rows.js";
import { lockRun, recountRun } from "./runs.js";
import type { StorageDatabase } from "./schema.js";

/** Which results {@link loadResults} and {@link countResults} read; every given criterion must hold. */
export interface ResultQuery {
  readonly runId?: string;
  /** The run's name (as given to `startRun`). */
  readonly runName?: string;
  readonly benchmarkName?: string;
  readonly questionIds?: readonly string[];
  /** Results with these `result_id`s. */
  readonly resultIds?: readonly string[];
  /** The answering model's `model_name`. */
  readonly answeringModel?: string;
  /**
   * true: the row passed as `rowOutcome` defines it (no failure and `verify_result` true); false: any other row
   * (a failure, whatever its `verify_result`, or a verdict that is not true).
   */
  readonly passed?: boolean;
  /** Page size; pages are in saving order, so paging with `offset` never repeats or skips a row. */
  readonly limit?: number;
  readonly offset?: number;
}

/** One result to store, and the question row it belongs to (its own `question_id` unless told otherwise). */
export interface ResultToStore {
  readonly result: VerificationResult;
  readonly questionId?: string;
}

/** Refuses results for questions the database does not hold (a clearer error than the foreign key's). */
async function checkQuestionsStored(ctx: StorageContext, questionIds: ReadonlySet<string>): Promise<void> {
  const found = new Set<string>();
  for (const slice of chunks([...questionIds])) {
    const rows = await ctx.db.selectFrom("questions").select("id").where("id", "in", slice).execute();
    for (const row of rows) found.add(row.id);
  }
  const missing = [...questionIds].filter((id) => !found.has(id));
  if (missing.length === 0) return;
  const shown = missing.slice(0, 5).map((id) => JSON.stringify(id));
  throw new StorageInputError(
    ctx.database,
    `results for question${missing.length > 1 ? "s" : ""} not in the database: ${shown.join(", ")}` +
      `${missing.length > 5 ? ` and ${missing.length - 5} more` : ""} (save their benchmark with saveBenchmark first)`,
  );
}

/** A digest saved again replaces the one of its result. */
const replaceDigest = (conflict: OnConflictBuilder<StorageDatabase, "result_digests">) =>
  conflict.column("result_pk").doUpdateSet((eb) => ({
    digest_version: eb.ref("excluded.digest_version"),
    digest_json: eb.ref("excluded.digest_json"),
  }));

/** A result saved again (same run and `result_id`) replaces its row, `created_at` kept. */
const replaceResult = (conflict: OnConflictBuilder<StorageDatabase, "verification_results">) =>
  conflict
    .columns(["run_id", "result_id"])
    .doUpdateSet((eb) =>
      Object.fromEntries(REPLACED_COLUMNS.map((column) => [column, eb.ref(`excluded.${column}`)])),
    );

/** Writes (or replaces) the digests of results just saved, given the ids their rows were saved under. */
async function upsertDigests(
  ctx: StorageContext,
  results: readonly ResultToStore[],
  saved: readonly { id: number; result_id: string }[],
): Promise<void> {
  const byResultId = new Map(results.map((r) => [r.result.metadata.result_id, r.result]));
  const rows = saved.flatMap((row) => {
    const result = byResultId.get(row.result_id);
    return result === undefined ? [] : [digestRow(result, Number(row.id))];
  });
  for (const slice of chunks(rows))
    await ctx.db.insertInto("result_digests").values(slice).onConflict(replaceDigest).execute();
}

/** How {@link saveResults} saves. */
export interface SaveResultsOptions {
  /**
   * Keep the run's counts as they are: a caller saving many small batches (a fleet worker) recounts the run
   * itself now and then (`recountRun`) and when it finishes. Default true.
   */
  readonly recount?: boolean;
  /**
   * The caller knows the results' questions are stored (it saved their benchmark): skip the check that names
   * missing ones (the foreign key still refuses them). Default true.
   */
  readonly checkQuestions?: boolean;
}

/** Inserts or replaces results by (run, result_id). Call inside the transaction that created or locked the run. */
export async function upsertResults(
  ctx: StorageContext,
  runId: string,
  results: readonly ResultToStore[],
  options: SaveResultsOptions = {},
): Promise<void> {
  if (options.checkQuestions !== false)
    await checkQuestionsStored(
      ctx,
      new Set(results.map((r) => r.questionId ?? r.result.metadata.question_id)),
    );
  const now = nowIso();
  for (const slice of chunks(results)) {
    const saved = await ctx.db
      .insertInto("verification_results")
      .values(slice.map((r) => resultRow(r.result, runId, ctx.dialect, now, r.questionId)))
      .onConflict(replaceResult)
      .returning(["id", "result_id"])
      .execute();
    await upsertDigests(ctx, slice, saved);
    await saveTableRows(
      ctx,
      runId,
      slice.map((r) => r.result),
      saved,
    );
  }
  if (options.recount !== false) await recountRun(ctx, runId);
}

/**
 * PostgreSQL: results with their digests and table rows, upserted by one statement per chunk (data-modifying
 * CTEs), so a saver of many small batches (a fleet worker) pays one round trip per batch. Each statement is
 * atomic on its own; no run lock, no recount.
 */
async function upsertResultsAtOnce(
  ctx: StorageContext,
  runId: string,
  results: readonly VerificationResult[],
): Promise<void> {
  const now = nowIso();
  // The rows of `saved` are read by raw subqueries, so the builders keep the schema's own type.
  const savedId = (result: VerificationResult) =>
    sql<number>`(SELECT saved.id FROM saved WHERE saved.result_id = ${result.metadata.result_id})`;
  for (const slice of chunks(results)) {
    const withSaved = ctx.db
      .with("saved", (db) =>
        db
          .insertInto("verification_results")
          .values(slice.map((result) => resultRow(result, runId, ctx.dialect, now)))
          .onConflict(replaceResult)
          .returning(["id", "result_id"]),
      )
      .with("digests", () =>
        ctx.db
          .insertInto("result_digests")
          .values(slice.map((result) => ({ ...digestRow(result, 0), result_pk: savedId(result) })))
          .onConflict(replaceDigest),
      ) as unknown as QueryCreator<StorageDatabase>;
    await withSaved
      .insertInto("result_table_rows")
      .values(slice.map((result) => ({ ...tableRowOf(result, 0, runId), result_pk: savedId(result) })))
      .onConflict(replaceTableRow)
      .execute();
  }
}

/**
 * Saves results of a run in one transaction, as they come (call it as often as you like). A result whose
 * `result_id` the run already holds replaces it, so saving again after a resume stores nothing twice. The
 * run's counts are recounted from its rows.
 * @throws {StorageNotFoundError} for an unknown run; {@link StorageInputError} for results of questions the
 * database does not hold.
 */
export async function saveResults(
  ctx: StorageContext,
  runId: string,
  results: readonly VerificationResult[],
  options: SaveResultsOptions = {},
): Promise<{ saved: number }> {
  if (options.recount === false && options.checkQuestions === false && ctx.dialect.name === "postgres") {
    await upsertResultsAtOnce(ctx, runId, results);
    return { saved: results.length };
  }
  await inTransaction(ctx, async (tx) => {
    // The lock serializes recounts; without one, savers of a run need not wait for each other.
    if (options.recount !== false) await lockRun(tx, runId);
    await upsertResults(
      tx,
      runId,
      results.map((result) => ({ result })),
      options,
    );
  });
  return { saved: results.length };
}

export function filteredResults(ctx: StorageContext, query: ResultQuery) {
  let select = ctx.db
    .selectFrom("verification_results as r")
    .innerJoin("verification_runs as runs", "runs.id", "r.run_id")
    .innerJoin("benchmarks as b", "b.id", "runs.benchmark_id");
  if (query.runId !== undefined) select = select.where("r.run_id", "=", query.runId);
  if (query.runName !== undefined) select = select.where("runs.run_name", "=", query.runName);
  if (query.benchmarkName !== undefined) select = select.where("b.name", "=", query.benchmarkName);
  if (query.questionIds !== undefined) {
    if (query.questionIds.length === 0) return select.where((eb) => eb.lit(false));
    select = select.where("r.question_id", "in", [...query.questionIds]);
  }
  if (query.resultIds !== undefined) {
    if (query.resultIds.length === 0) return select.where((eb) => eb.lit(false));
    select = select.where("r.result_id", "in", [...query.resultIds]);
  }
  if (query.answeringModel !== undefined)
    select = select.where("r.answering_model_name", "=", query.answeringModel);
  const passed = ctx.dialect.bool(true);
  if (query.passed === true) {
    select = select.where("r.verify_result", "=", passed).where("r.failure_category", "is", null);
  }
  if (query.passed === false) {
    select = select.where((eb) =>
      eb.or([
        eb("r.verify_result", "is", null),
        eb("r.verify_result", "!=", passed),
        eb("r.failure_category", "is not", null),
      ]),
    );
  }
  return select;
}

/**
 * Stored results matching the query, as the `VerificationResult`s that were saved, in saving order.
 */
export async function loadResults(
  ctx: StorageContext,
  query: ResultQuery = {},
): Promise<VerificationResult[]> {
  let select = filteredResults(ctx, query).select(["r.id", "r.result_json"]).orderBy("r.id");
  if (query.limit !== undefined || query.offset !== undefined) {
    select = select.limit(query.limit ?? Number.MAX_SAFE_INTEGER).offset(query.offset ?? 0);
  }
  const rows = await select.execute();
  return rows.map((row) =>
    resultOfRow(row.result_json, `${ctx.database}: verification_results row ${row.id}`),
  );
}

/** How many stored results match the query (`limit` and `offset` ignored). */
export async function countResults(ctx: StorageContext, query: ResultQuery = {}): Promise<number> {
  const row = await filteredResults(ctx, query)
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
