import type { OnConflictBuilder } from "kysely";
import { RESULT_TABLE_ROW_VERSION, type ResultTableRow, resultTableRow } from "../result-table/index.js";
import type { VerificationResult } from "../results/index.js";
import { chunks, type StorageContext } from "./context.js";
import { resultOfRow } from "./result-rows.js";
import type { StorageDatabase } from "./schema.js";

// The results table (spec 07 §1.6) reads one narrow row per result (result-table/table-row.ts) from
// result_table_rows: written beside the result when it is saved, and for results saved before that table
// existed (or with another row version), computed from the whole result the first time its run's table is read.

/** Rows computed per step when filling a run's missing table rows. */
const FILL_BATCH = 500;

/** The table row of a result saved as row `pk` of a run. */
export const tableRowOf = (result: VerificationResult, pk: number, runId: string) => ({
  result_pk: pk,
  run_id: runId,
  row_version: RESULT_TABLE_ROW_VERSION,
  row_json: JSON.stringify(resultTableRow(result)),
});

/** A table row saved again replaces the one of its result. */
export const replaceTableRow = (conflict: OnConflictBuilder<StorageDatabase, "result_table_rows">) =>
  conflict.column("result_pk").doUpdateSet((eb) => ({
    run_id: eb.ref("excluded.run_id"),
    row_version: eb.ref("excluded.row_version"),
    row_json: eb.ref("excluded.row_json"),
  }));

async function upsertTableRows(
  ctx: StorageContext,
  rows: ReadonlyArray<ReturnType<typeof tableRowOf>>,
): Promise<void> {
  for (const slice of chunks(rows))
    await ctx.db.insertInto("result_table_rows").values(slice).onConflict(replaceTableRow).execute();
}

/** Writes (or replaces) the table rows of results just saved in a run, given the ids their rows were saved under. */
export async function saveTableRows(
  ctx: StorageContext,
  runId: string,
  results: readonly VerificationResult[],
  saved: readonly { id: number; result_id: string }[],
): Promise<void> {
  const byResultId = new Map(results.map((result) => [result.metadata.result_id, result]));
  const rows = saved.flatMap((row) => {
    const result = byResultId.get(row.result_id);
    return result === undefined ? [] : [tableRowOf(result, Number(row.id), runId)];
  });
  await upsertTableRows(ctx, rows);
}

/** Computes the table rows the runs' results lack (or hold in another version) from their whole results. */
async function fillTableRows(ctx: StorageContext, runIds: readonly string[]): Promise<void> {
  for (let after = 0; ; ) {
    const rows = await ctx.db
      .selectFrom("verification_results as r")
      .leftJoin("result_table_rows as t", "t.result_pk", "r.id")
      .select(["r.id", "r.run_id", "r.result_json"])
      .where("r.run_id", "in", [...runIds])
      .where("r.id", ">", after)
      .where((eb) =>
        eb.or([eb("t.row_version", "is", null), eb("t.row_version", "!=", RESULT_TABLE_ROW_VERSION)]),
      )
      .orderBy("r.id")
      .limit(FILL_BATCH)
      .execute();
    await upsertTableRows(
      ctx,
      rows.map((row) =>
        tableRowOf(
          resultOfRow(row.result_json, `${ctx.database}: verification_results row ${row.id}`),
          Number(row.id),
          row.run_id,
        ),
      ),
    );
    if (rows.length < FILL_BATCH) return;
    after = Number(rows.at(-1)?.id);
  }
}

/**
 * How many results the runs hold and how many current table rows: when they differ, the table must be
 * filled again. Both counts are read from indexes.
 */
export async function tableRowCounts(
  ctx: StorageContext,
  runIds: readonly string[],
): Promise<{ results: number; tableRows: number }> {
  if (runIds.length === 0) return { results: 0, tableRows: 0 };
  const [results, tableRows] = await Promise.all([
    ctx.db
      .selectFrom("verification_results")
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .where("run_id", "in", [...runIds])
      .executeTakeFirstOrThrow(),
    ctx.db
      .selectFrom("result_table_rows")
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .where("run_id", "in", [...runIds])
      .executeTakeFirstOrThrow(),
  ]);
  return { results: Number(results.count), tableRows: Number(tableRows.count) };
}

/**
 * Every table row of the runs' results, in saving order; rows missing (or of another version) are computed
 * from their whole results first and kept.
 */
export async function readTableRows(
  ctx: StorageContext,
  runIds: readonly string[],
): Promise<ResultTableRow[]> {
  if (runIds.length === 0) return [];
  const counts = await tableRowCounts(ctx, runIds);
  if (counts.results !== counts.tableRows) await fillTableRows(ctx, runIds);
  const rows = await ctx.db
    .selectFrom("result_table_rows")
    .select(["result_pk", "row_version", "row_json"])
    .where("run_id", "in", [...runIds])
    .orderBy("result_pk")
    .execute();
  const stale = rows.some((row) => Number(row.row_version) !== RESULT_TABLE_ROW_VERSION);
  if (stale) {
    await fillTableRows(ctx, runIds);
    return readTableRows(ctx, runIds);
  }
  // One parse of the whole array is faster than 100,000 small ones.
  return JSON.parse(`[${rows.map((row) => row.row_json).join(",")}]`) as ResultTableRow[];
}
