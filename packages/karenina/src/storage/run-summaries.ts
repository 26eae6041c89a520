import { sql } from "kysely";
import { type ResultSummary, SUMMARY_FORMAT_VERSION } from "../results/index.js";
import { inTransaction, nowIso, type StorageContext } from "./context.js";
import { FINAL_RUN_STATUSES } from "./runs.js";

// A finished run's summary never changes, so it is stored (run_summaries) instead of read from 100,000 digests
// each time. A stored summary is used only while it still describes the run: written with the current summary
// format, the run still holding as many results with the same last row id (a result added or deleted changes
// one of them), and the run's row not touched since (saving a result touches it first, so a result replaced in
// place under the same row id shows too: the summary's created_at is after the run's updated_at, and a later
// change sets updated_at to that millisecond or a later one).

/** A stored summary and the number of results it summarises. */
export interface StoredRunSummary {
  readonly summary: ResultSummary;
  readonly resultCount: number;
}

/** The run's result count and highest result row id, read with the (run_id, id) index. */
function runRowsNow(ctx: StorageContext, runId: string) {
  return ctx.db
    .selectFrom("verification_results")
    .select((eb) => [eb.fn.countAll<number | string>().as("count"), eb.fn.max("id").as("last")])
    .where("run_id", "=", runId)
    .executeTakeFirstOrThrow();
}

/**
 * Now, once the clock is past `time` (timestamps have millisecond resolution: a summary written in the
 * millisecond of the run's last change could not be told from one written before a change in that same
 * millisecond). Null when the clock stays behind (a run touched in its future).
 */
async function instantAfter(time: string): Promise<string | null> {
  for (let tries = 0; tries < 5; tries++) {
    const now = nowIso();
    if (now > time) return now;
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  return null;
}

/**
 * Stores `summary` as the summary of a finished run holding `resultCount` results (replacing any stored one).
 * Nothing is stored, and false returned, when the run is not finished (completed, failed or cancelled) or no
 * longer holds `resultCount` results: the summary was then made of other rows than the run's.
 */
export function saveRunSummary(
  ctx: StorageContext,
  runId: string,
  summary: ResultSummary,
  resultCount: number,
): Promise<boolean> {
  return inTransaction(ctx, (tx) => saveRunSummaryIn(tx, runId, summary, resultCount));
}

/** {@link saveRunSummary} inside the caller's transaction (a results import stores its run's summary with it). */
export async function saveRunSummaryIn(
  tx: StorageContext,
  runId: string,
  summary: ResultSummary,
  resultCount: number,
): Promise<boolean> {
  let runQuery = tx.db
    .selectFrom("verification_runs")
    .select(["status", "updated_at"])
    .where("id", "=", runId);
  // PostgreSQL: a saver of the run's results waits for this transaction (it touches the run's row first).
  if (tx.dialect.name === "postgres") runQuery = runQuery.forUpdate();
  const run = await runQuery.executeTakeFirst();
  if (run === undefined || !(FINAL_RUN_STATUSES as readonly string[]).includes(run.status)) return false;
  const rows = await runRowsNow(tx, runId);
  if (Number(rows.count) !== resultCount) return false;
  const createdAt = await instantAfter(run.updated_at);
  if (createdAt === null) return false;
  const values = {
    format_version: SUMMARY_FORMAT_VERSION,
    result_count: resultCount,
    last_result_pk: rows.last === null ? null : Number(rows.last),
    summary_json: JSON.stringify(summary),
    created_at: createdAt,
  };
  await tx.db
    .insertInto("run_summaries")
    .values({ run_id: runId, ...values })
    .onConflict((conflict) => conflict.column("run_id").doUpdateSet(values))
    .execute();
  return true;
}

/**
 * The stored summary of a run, or null when there is none or it no longer describes the run (see the note at
 * the top of this file); one query, its counts read with the (run_id, id) index.
 */
export async function loadRunSummary(ctx: StorageContext, runId: string): Promise<StoredRunSummary | null> {
  const row = await ctx.db
    .selectFrom("run_summaries as s")
    .innerJoin("verification_runs as r", "r.id", "s.run_id")
    .select(["s.summary_json", "s.result_count"])
    .where("s.run_id", "=", runId)
    .where("s.format_version", "=", SUMMARY_FORMAT_VERSION)
    .where(sql<boolean>`r.updated_at < s.created_at`)
    .where(
      sql<boolean>`s.result_count = (SELECT count(*) FROM verification_results v WHERE v.run_id = s.run_id)`,
    )
    .where(
      sql<boolean>`coalesce(s.last_result_pk, 0) = coalesce((SELECT max(v.id) FROM verification_results v WHERE v.run_id = s.run_id), 0)`,
    )
    .executeTakeFirst();
  if (row === undefined) return null;
  return { summary: JSON.parse(row.summary_json) as ResultSummary, resultCount: Number(row.result_count) };
}

/** Deletes a run's stored summary (the next summary of the run is computed); false when there was none. */
export async function deleteRunSummary(ctx: StorageContext, runId: string): Promise<boolean> {
  const deleted = await ctx.db.deleteFrom("run_summaries").where("run_id", "=", runId).executeTakeFirst();
  return deleted.numDeletedRows > 0n;
}
