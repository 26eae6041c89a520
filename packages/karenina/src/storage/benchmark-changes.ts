import { sql } from "kysely";
import type { Benchmark } from "../benchmark/index.js";
import { benchmarkRows, type MemberRows } from "./benchmark-rows.js";
import { loadBenchmark, replaceScenarios, upsertMembers, upsertQuestions } from "./benchmarks.js";
import { chunks, inTransaction, nowIso, type StorageContext } from "./context.js";
import { StorageInputError } from "./errors.js";

/** What an edit of a stored benchmark changed: only these questions' rows are written. */
export interface BenchmarkChangeSet {
  /** Questions added or changed (their `questions` and membership rows are written). */
  readonly changed: readonly string[];
  /** Questions removed from the benchmark (their membership rows are deleted). */
  readonly removed: readonly string[];
}

/** What {@link saveBenchmarkChanges} did. */
export interface SavedBenchmarkChanges<T extends BenchmarkChangeSet> {
  /** The benchmark as now stored. */
  readonly benchmark: Benchmark;
  /** What the edit returned. */
  readonly changes: T;
  /** Unchanged questions whose stored position had to move (a reorder, an insertion in the middle). */
  readonly repositioned: number;
}

/**
 * Edits a stored benchmark incrementally, in one transaction: the benchmark is loaded (the row locked on
 * PostgreSQL; SQLite's transaction is already exclusive), `edit` changes it through the library's own
 * `Benchmark` methods and says which questions it touched, and only those rows are written — the changed
 * questions' shared and membership rows, the removed members, the benchmark row (metadata, global rubric),
 * the scenario rows (few: rewritten whole), and the positions that moved. `edit` may throw to write nothing.
 * The benchmark cannot be renamed here.
 * @throws {StorageNotFoundError} when no benchmark has that name.
 * @throws {StorageInputError} when `edit` renamed the benchmark or named a question the benchmark lacks.
 */
export async function saveBenchmarkChanges<T extends BenchmarkChangeSet>(
  ctx: StorageContext,
  name: string,
  edit: (bench: Benchmark) => T | Promise<T>,
): Promise<SavedBenchmarkChanges<T>> {
  return inTransaction(ctx, async (tx) => {
    if (tx.dialect.name === "postgres") {
      await sql`select id from benchmarks where name = ${name} for update`.execute(tx.db);
    }
    const bench = await loadBenchmark(tx, name);
    const changes = await edit(bench);
    if (bench.name !== name) {
      throw new StorageInputError(
        tx.database,
        `benchmark ${JSON.stringify(name)} cannot be renamed by an edit`,
      );
    }
    const stored = await tx.db
      .selectFrom("benchmarks")
      .select(["id", "checkpoint_path"])
      .where("name", "=", name)
      .executeTakeFirstOrThrow();
    const now = nowIso();
    const rows = benchmarkRows(bench, tx.dialect, stored.checkpoint_path, now);
    const { description, version, creator, metadata_json } = rows.benchmark;
    await tx.db
      .updateTable("benchmarks")
      .set({ description, version, creator, metadata_json, updated_at: now })
      .where("id", "=", stored.id)
      .execute();
    await replaceScenarios(tx, stored.id, rows.scenarios);
    for (const slice of chunks(changes.removed)) {
      await tx.db
        .deleteFrom("benchmark_questions")
        .where("benchmark_id", "=", stored.id)
        .where("question_id", "in", slice)
        .execute();
    }
    const positions = await storedPositions(tx, stored.id);
    const planned = plannedPositions(bench.getQuestionIds(), positions);
    const changed = changedMembers(tx, rows.members, changes.changed, planned);
    await upsertQuestions(tx, changed);
    await upsertMembers(tx, stored.id, changed);
    const written = new Set(changes.changed);
    let repositioned = 0;
    for (const [id, position] of planned) {
      if (written.has(id) || positions.get(id) === position) continue;
      await tx.db
        .updateTable("benchmark_questions")
        .set({ position })
        .where("benchmark_id", "=", stored.id)
        .where("question_id", "=", id)
        .execute();
      repositioned++;
    }
    return { benchmark: bench, changes, repositioned };
  });
}

async function storedPositions(ctx: StorageContext, benchmarkId: number): Promise<Map<string, number>> {
  const rows = await ctx.db
    .selectFrom("benchmark_questions")
    .select(["question_id", "position"])
    .where("benchmark_id", "=", benchmarkId)
    .execute();
  return new Map(rows.map((row) => [row.question_id, row.position]));
}

/**
 * The position of every question in `order`. Stored positions are kept when they already follow the order
 * and new questions come last (they then take the next free positions), so an ordinary save moves nothing;
 * otherwise every question takes its index.
 */
export function plannedPositions(
  order: readonly string[],
  stored: ReadonlyMap<string, number>,
): Map<string, number> {
  const kept = order.filter((id) => stored.has(id));
  const newLast = order.slice(kept.length).every((id) => !stored.has(id));
  const keptPositions = kept.map((id) => stored.get(id) as number);
  const increasing = keptPositions.every((p, i) => i === 0 || p > (keptPositions[i - 1] as number));
  if (!newLast || !increasing) return new Map(order.map((id, index) => [id, index]));
  let next = [...stored.values()].reduce((max, p) => Math.max(max, p), -1) + 1;
  return new Map(order.map((id) => [id, stored.get(id) ?? next++]));
}

function changedMembers(
  ctx: StorageContext,
  members: readonly MemberRows[],
  changedIds: readonly string[],
  planned: ReadonlyMap<string, number>,
): MemberRows[] {
  const byId = new Map(members.map((m) => [m.member.question_id, m]));
  return [...new Set(changedIds)].map((id) => {
    const rows = byId.get(id);
    if (rows === undefined) {
      throw new StorageInputError(
        ctx.database,
        `the edit names question ${JSON.stringify(id)}, which the benchmark does not hold`,
      );
    }
    return { ...rows, member: { ...rows.member, position: planned.get(id) as number } };
  });
}
