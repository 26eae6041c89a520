import { sql } from "kysely";
import { Benchmark } from "../benchmark/index.js";
import {
  type BenchmarkRows,
  benchmarkRows,
  checkpointText,
  type MemberRows,
  type ScenarioRow,
} from "./benchmark-rows.js";
import { chunks, inTransaction, nowIso, type StorageContext } from "./context.js";
import { StorageNotFoundError } from "./errors.js";

/** Options of {@link saveBenchmark}. */
export interface SaveBenchmarkOptions {
  /** The checkpoint file the benchmark came from, recorded beside it. */
  readonly checkpointPath?: string | null;
}

/** What {@link saveBenchmark} stored. */
export interface SavedBenchmark {
  readonly id: number;
  readonly name: string;
  readonly questionCount: number;
  /** How many scenarios (by name, as `Benchmark.scenarioCount`); 0 for a benchmark of questions. */
  readonly scenarioCount: number;
}

/** A stored benchmark, as {@link listBenchmarks} lists it. */
export interface StoredBenchmark {
  readonly id: number;
  readonly name: string;
  readonly description: string | null;
  readonly version: string | null;
  readonly creator: string | null;
  readonly checkpointPath: string | null;
  readonly questionCount: number;
  readonly finishedCount: number;
  /** How many scenarios (by name, as `Benchmark.scenarioCount`): more than 0 for a scenario benchmark. */
  readonly scenarioCount: number;
  readonly createdAt: string;
  readonly updatedAt: string;
}

async function upsertBenchmark(ctx: StorageContext, row: BenchmarkRows["benchmark"]): Promise<number> {
  const { created_at: _kept, name: _key, ...changes } = row;
  const saved = await ctx.db
    .insertInto("benchmarks")
    .values(row)
    .onConflict((conflict) => conflict.column("name").doUpdateSet(changes))
    .returning("id")
    .executeTakeFirstOrThrow();
  return saved.id;
}

/**
 * Questions are shared between benchmarks: a question already stored takes the content saved last (its
 * answer, notes, keywords, author, sources, custom metadata and few-shot examples; spec 07 §2.5 — the
 * original's rows were insert-once, so edits never reached the database).
 */
export async function upsertQuestions(ctx: StorageContext, members: readonly MemberRows[]): Promise<void> {
  for (const slice of chunks(members.map((m) => m.question))) {
    await ctx.db
      .insertInto("questions")
      .values(slice)
      .onConflict((conflict) =>
        conflict.column("id").doUpdateSet((eb) => ({
          question_text: eb.ref("excluded.question_text"),
          raw_answer: eb.ref("excluded.raw_answer"),
          answer_notes: eb.ref("excluded.answer_notes"),
          keywords: eb.ref("excluded.keywords"),
          author: eb.ref("excluded.author"),
          sources: eb.ref("excluded.sources"),
          custom_metadata: eb.ref("excluded.custom_metadata"),
          few_shot_examples: eb.ref("excluded.few_shot_examples"),
          updated_at: eb.ref("excluded.updated_at"),
        })),
      )
      .execute();
  }
}

/**
 * Makes the membership rows those of the benchmark now: updated in place, added, or removed. An updated row
 * keeps its `original_answer_template` unless the checkpoint item names one.
 */
async function replaceMembers(
  ctx: StorageContext,
  benchmarkId: number,
  members: readonly MemberRows[],
): Promise<void> {
  const current = new Set(members.map((m) => m.member.question_id));
  const stored = await ctx.db
    .selectFrom("benchmark_questions")
    .select("question_id")
    .where("benchmark_id", "=", benchmarkId)
    .execute();
  const removed = stored.map((row) => row.question_id).filter((id) => !current.has(id));
  for (const slice of chunks(removed)) {
    await ctx.db
      .deleteFrom("benchmark_questions")
      .where("benchmark_id", "=", benchmarkId)
      .where("question_id", "in", slice)
      .execute();
  }
  await upsertMembers(ctx, benchmarkId, members);
}

/**
 * Inserts or updates membership rows. An updated row keeps its `original_answer_template` unless the checkpoint
 * item names one.
 */
export async function upsertMembers(
  ctx: StorageContext,
  benchmarkId: number,
  members: readonly MemberRows[],
): Promise<void> {
  for (const slice of chunks(members)) {
    const rows = slice.map((m) => ({ ...m.member, benchmark_id: benchmarkId }));
    await ctx.db
      .insertInto("benchmark_questions")
      .values(rows)
      .onConflict((conflict) =>
        conflict.columns(["benchmark_id", "question_id"]).doUpdateSet((eb) => ({
          position: eb.ref("excluded.position"),
          template_id: eb.ref("excluded.template_id"),
          answer_template: eb.ref("excluded.answer_template"),
          template_language: eb.ref("excluded.template_language"),
          finished: eb.ref("excluded.finished"),
          keywords: eb.ref("excluded.keywords"),
          question_rubric: eb.ref("excluded.question_rubric"),
          item_json: eb.ref("excluded.item_json"),
          updated_at: eb.ref("excluded.updated_at"),
        })),
      )
      .execute();
  }
  for (const { member, namedOriginalTemplate } of members) {
    if (namedOriginalTemplate === null) continue;
    await ctx.db
      .updateTable("benchmark_questions")
      .set({ original_answer_template: namedOriginalTemplate })
      .where("benchmark_id", "=", benchmarkId)
      .where("question_id", "=", member.question_id)
      .execute();
  }
}

/** Makes a benchmark's scenario rows exactly `scenarios` (its root `hasPart` entries, in order). */
export async function replaceScenarios(
  ctx: StorageContext,
  benchmarkId: number,
  scenarios: readonly ScenarioRow[],
): Promise<void> {
  await ctx.db.deleteFrom("benchmark_scenarios").where("benchmark_id", "=", benchmarkId).execute();
  for (const slice of chunks(scenarios)) {
    const rows = slice.map((scenario) => ({ ...scenario, benchmark_id: benchmarkId }));
    await ctx.db.insertInto("benchmark_scenarios").values(rows).execute();
  }
}

/**
 * Saves a benchmark under its name, in one transaction: the benchmark row is inserted or updated, its
 * questions are added to the shared `questions` table when new, its membership rows become exactly its
 * questions (templates, finished flags, keywords, question rubrics, in order), and its scenario rows exactly its
 * scenarios (the checkpoint's scenario nodes, in order).
 */
export async function saveBenchmark(
  ctx: StorageContext,
  bench: Benchmark,
  options: SaveBenchmarkOptions = {},
): Promise<SavedBenchmark> {
  const rows = benchmarkRows(bench, ctx.dialect, options.checkpointPath ?? null, nowIso());
  const id = await inTransaction(ctx, async (tx) => {
    const benchmarkId = await upsertBenchmark(tx, rows.benchmark);
    await upsertQuestions(tx, rows.members);
    await replaceMembers(tx, benchmarkId, rows.members);
    await replaceScenarios(tx, benchmarkId, rows.scenarios);
    return benchmarkId;
  });
  return { id, name: bench.name, questionCount: rows.members.length, scenarioCount: bench.scenarioCount };
}

/**
 * Stores the questions of `bench` (upserted by id) without the benchmark itself or any membership: the rows of a
 * scenario run belong to its nodes' questions, which no stored benchmark lists. Returns how many.
 */
export async function saveQuestions(ctx: StorageContext, bench: Benchmark): Promise<number> {
  const { members } = benchmarkRows(bench, ctx.dialect, null, nowIso());
  await inTransaction(ctx, (tx) => upsertQuestions(tx, members));
  return members.length;
}

/** A hint naming a few of the benchmarks stored, for not-found errors. */
async function knownBenchmarks(ctx: StorageContext): Promise<string> {
  const rows = await ctx.db.selectFrom("benchmarks").select("name").orderBy("name").limit(6).execute();
  if (rows.length === 0) return "the database holds no benchmark";
  const names = rows.slice(0, 5).map((row) => JSON.stringify(row.name));
  return `stored: ${names.join(", ")}${rows.length > 5 ? ", ..." : ""}`;
}

/** The id of a stored benchmark. @throws {StorageNotFoundError} naming a few stored ones. */
export async function benchmarkId(ctx: StorageContext, name: string): Promise<number> {
  const row = await ctx.db.selectFrom("benchmarks").select("id").where("name", "=", name).executeTakeFirst();
  if (row) return row.id;
  throw new StorageNotFoundError(ctx.database, "benchmark", name, await knownBenchmarks(ctx));
}

/**
 * Rebuilds a stored benchmark: the same checkpoint document as was saved (questions, templates, finished
 * flags, rubrics with their deep-judgment settings, scenarios, metadata).
 * @throws {StorageNotFoundError} when no benchmark has that name.
 * @throws {ScenarioError} when a stored scenario no longer decodes, naming the database and benchmark, the JSON
 * path (`$.hasPart[<position>]...`) and the scenario, as for a checkpoint file.
 */
export async function loadBenchmark(
  ctx: StorageContext,
  name: string,
  options: { workspaceRoot?: string | null } = {},
): Promise<Benchmark> {
  const row = await ctx.db
    .selectFrom("benchmarks")
    .select(["id", "metadata_json"])
    .where("name", "=", name)
    .executeTakeFirst();
  if (!row) throw new StorageNotFoundError(ctx.database, "benchmark", name, await knownBenchmarks(ctx));
  const items = await ctx.db
    .selectFrom("benchmark_questions")
    .select("item_json")
    .where("benchmark_id", "=", row.id)
    .orderBy("position")
    .execute();
  const scenarios = await ctx.db
    .selectFrom("benchmark_scenarios")
    .select("scenario_json")
    .where("benchmark_id", "=", row.id)
    .orderBy("position")
    .execute();
  const text = checkpointText(
    row.metadata_json,
    items.map((item) => item.item_json),
    scenarios.map((scenario) => scenario.scenario_json),
  );
  return Benchmark.parse(text, {
    file: `${ctx.database}: benchmark ${JSON.stringify(name)}`,
    workspaceRoot: options.workspaceRoot ?? null,
  });
}

/** Every stored benchmark, by name, with its question, finished and scenario counts. */
export async function listBenchmarks(ctx: StorageContext): Promise<StoredBenchmark[]> {
  const rows = await ctx.db
    .selectFrom("benchmarks as b")
    .leftJoin("benchmark_questions as bq", "bq.benchmark_id", "b.id")
    .select((eb) => [
      "b.id",
      "b.name",
      "b.description",
      "b.version",
      "b.creator",
      "b.checkpoint_path",
      "b.created_at",
      "b.updated_at",
      eb.fn.count<number>("bq.id").as("question_count"),
      sql<number>`coalesce(sum(case when bq.finished then 1 else 0 end), 0)`.as("finished_count"),
      eb
        .selectFrom("benchmark_scenarios as bs")
        .select((sub) => sub.fn.count<number>("bs.name").distinct().as("n"))
        .whereRef("bs.benchmark_id", "=", "b.id")
        .as("scenario_count"),
    ])
    .groupBy("b.id")
    .orderBy("b.name")
    .execute();
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    description: row.description,
    version: row.version,
    creator: row.creator,
    checkpointPath: row.checkpoint_path,
    questionCount: Number(row.question_count),
    finishedCount: Number(row.finished_count),
    scenarioCount: Number(row.scenario_count ?? 0),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }));
}
