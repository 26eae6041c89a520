import { Benchmark } from "../benchmark/index.js";
import type { DataFeed, DataFeedItem } from "../checkpoint/index.js";
import { benchmarkId } from "./benchmarks.js";
import { inTransaction, type StorageContext } from "./context.js";

/**
 * A question of a benchmark about to be saved that the stored benchmark already holds with different content
 * (same question id, another checkpoint item): the two items, for a person to choose between (spec 06 §4.4).
 */
export interface DuplicateQuestion {
  readonly questionId: string;
  readonly questionText: string;
  /** The stored checkpoint item. */
  readonly oldVersion: DataFeedItem;
  /** The item about to be saved. */
  readonly newVersion: DataFeedItem;
}

/** Which version of a duplicate question a merge keeps (default `keep_new`). */
export type DuplicateResolution = "keep_old" | "keep_new";

/** What {@link deleteBenchmark} removed. */
export interface DeletedBenchmark {
  /** Questions the benchmark held (its membership rows). */
  readonly deletedQuestions: number;
  /** Its verification runs, with their results. */
  readonly deletedRuns: number;
}

/** The stored items of a benchmark by question id, in benchmark order; empty when it is not stored. */
async function storedItems(ctx: StorageContext, name: string): Promise<Map<string, DataFeedItem>> {
  const rows = await ctx.db
    .selectFrom("benchmark_questions as bq")
    .innerJoin("benchmarks as b", "b.id", "bq.benchmark_id")
    .select(["bq.question_id", "bq.item_json"])
    .where("b.name", "=", name)
    .orderBy("bq.position")
    .execute();
  return new Map(rows.map((row) => [row.question_id, JSON.parse(row.item_json) as DataFeedItem]));
}

const itemId = (item: DataFeedItem): string => item["@id"] ?? item.item.text;

/** Whether two items differ other than in their modification time (which every save refreshes). */
function differs(stored: DataFeedItem, sent: DataFeedItem): boolean {
  const { dateModified: _a, ...left } = stored;
  const { dateModified: _b, ...right } = sent;
  return JSON.stringify(left) !== JSON.stringify(right);
}

/** The items of a benchmark as it would be saved. */
const itemsOf = (bench: Benchmark): DataFeedItem[] =>
  bench.toCheckpoint({ saveDeepJudgmentConfig: true }).dataFeedElement;

/**
 * The questions of `bench` that the benchmark stored under its name holds with other content; nothing is
 * written. None when no benchmark has that name.
 */
export async function findDuplicates(ctx: StorageContext, bench: Benchmark): Promise<DuplicateQuestion[]> {
  const stored = await storedItems(ctx, bench.name);
  const duplicates: DuplicateQuestion[] = [];
  for (const item of itemsOf(bench)) {
    const old = stored.get(itemId(item));
    if (old === undefined || !differs(old, item)) continue;
    duplicates.push({
      questionId: itemId(item),
      questionText: item.item.text,
      oldVersion: old,
      newVersion: item,
    });
  }
  return duplicates;
}

/** A benchmark merged from the stored one and `bench`, and how many duplicates kept each version. */
export interface MergedBenchmark {
  readonly benchmark: Benchmark;
  readonly keptOld: number;
  readonly keptNew: number;
}

/**
 * Merges `bench` into the benchmark stored under its name (the original's "export to benchmark"): stored
 * questions stay in their order, a question both hold takes the version `resolutions` names (default the new
 * one), new questions follow; the document's own fields (metadata, global rubric) are those of `bench`.
 * Nothing is written: save the result with `saveBenchmark`.
 */
export async function mergeIntoStored(
  ctx: StorageContext,
  bench: Benchmark,
  resolutions: Readonly<Record<string, DuplicateResolution>>,
): Promise<MergedBenchmark> {
  const stored = await storedItems(ctx, bench.name);
  const doc = bench.toCheckpoint({ saveDeepJudgmentConfig: true });
  const merged = new Map(stored);
  let keptOld = 0;
  let keptNew = 0;
  for (const item of doc.dataFeedElement) {
    const id = itemId(item);
    const old = stored.get(id);
    if (old !== undefined && differs(old, item)) {
      if (resolutions[id] === "keep_old") {
        keptOld += 1;
        continue;
      }
      keptNew += 1;
    }
    merged.set(id, item);
  }
  const mergedDoc: DataFeed = { ...doc, dataFeedElement: [...merged.values()] };
  return { benchmark: Benchmark.fromCheckpoint(mergedDoc), keptOld, keptNew };
}

/**
 * Deletes a stored benchmark in one transaction: its membership rows, its runs and their results, and the
 * question rows no other benchmark or result uses any more.
 * @throws {StorageNotFoundError} when no benchmark has that name.
 */
export async function deleteBenchmark(ctx: StorageContext, name: string): Promise<DeletedBenchmark> {
  return inTransaction(ctx, async (tx) => {
    const id = await benchmarkId(tx, name);
    const members = await tx.db
      .selectFrom("benchmark_questions")
      .select("question_id")
      .where("benchmark_id", "=", id)
      .execute();
    const runs = await tx.db
      .deleteFrom("verification_runs")
      .where("benchmark_id", "=", id)
      .executeTakeFirst();
    await tx.db.deleteFrom("benchmark_questions").where("benchmark_id", "=", id).execute();
    await tx.db.deleteFrom("benchmarks").where("id", "=", id).execute();
    const questionIds = members.map((row) => row.question_id);
    for (const questionId of questionIds) {
      await tx.db
        .deleteFrom("questions")
        .where("id", "=", questionId)
        .where(({ not, exists, selectFrom }) =>
          not(exists(selectFrom("benchmark_questions").select("id").where("question_id", "=", questionId))),
        )
        .where(({ not, exists, selectFrom }) =>
          not(exists(selectFrom("verification_results").select("id").where("question_id", "=", questionId))),
        )
        .execute();
    }
    return { deletedQuestions: questionIds.length, deletedRuns: Number(runs.numDeletedRows) };
  });
}
