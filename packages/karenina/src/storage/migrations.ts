import { type Kysely, type Migration, Migrator, sql } from "kysely";
import { digestJson, parseVerificationResult, RESULT_DIGEST_VERSION } from "../results/index.js";
import { chunks } from "./context.js";
import type { Dialect } from "./dialect.js";
import { causeText, StorageSchemaError } from "./errors.js";
import { VIEW_NAMES, viewDefinitions } from "./views.js";

// The schema's history. A migration, once released, never changes: a new schema is a new migration, named
// with the next number. The migrations table records which ran; its highest number is the schema version.

const MIGRATION_TABLE = "karenina_migrations";
const MIGRATION_LOCK_TABLE = "karenina_migrations_lock";

// biome-ignore lint/suspicious/noExplicitAny: migrations see the database as it was then, not as typed now.
type AnyDb = Kysely<any>;

async function createBenchmarkTables(db: AnyDb, d: Dialect): Promise<void> {
  await db.schema
    .createTable("benchmarks")
    .addColumn("id", "integer", d.identity)
    .addColumn("name", "text", (c) => c.notNull().unique())
    .addColumn("description", "text")
    .addColumn("version", "text")
    .addColumn("creator", "text")
    .addColumn("checkpoint_path", "text")
    .addColumn("metadata_json", d.jsonType, (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("questions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("question_text", "text", (c) => c.notNull())
    .addColumn("raw_answer", "text", (c) => c.notNull())
    .addColumn("answer_notes", "text")
    .addColumn("keywords", d.jsonType)
    .addColumn("author", d.jsonType)
    .addColumn("sources", d.jsonType)
    .addColumn("custom_metadata", d.jsonType)
    .addColumn("few_shot_examples", d.jsonType)
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("benchmark_questions")
    .addColumn("id", "integer", d.identity)
    .addColumn("benchmark_id", "integer", (c) => c.notNull().references("benchmarks.id").onDelete("cascade"))
    .addColumn("question_id", "text", (c) => c.notNull().references("questions.id"))
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("template_id", "text", (c) => c.notNull())
    .addColumn("answer_template", "text", (c) => c.notNull())
    .addColumn("template_language", "text", (c) => c.notNull())
    .addColumn("finished", "boolean", (c) => c.notNull())
    .addColumn("keywords", d.jsonType)
    .addColumn("question_rubric", d.jsonType)
    .addColumn("item_json", d.jsonType, (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addUniqueConstraint("benchmark_questions_member_key", ["benchmark_id", "question_id"])
    .execute();
  await db.schema
    .createIndex("benchmark_questions_finished_idx")
    .on("benchmark_questions")
    .columns(["benchmark_id", "finished"])
    .execute();
}

async function createRunTables(db: AnyDb, d: Dialect): Promise<void> {
  await db.schema
    .createTable("verification_runs")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("benchmark_id", "integer", (c) => c.notNull().references("benchmarks.id").onDelete("cascade"))
    .addColumn("run_name", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("config", d.jsonType)
    .addColumn("total_questions", "integer")
    .addColumn("processed_count", "integer", (c) => c.notNull())
    .addColumn("successful_count", "integer", (c) => c.notNull())
    .addColumn("failed_count", "integer", (c) => c.notNull())
    .addColumn("start_time", "text", (c) => c.notNull())
    .addColumn("end_time", "text")
    .addColumn("error_message", "text")
    .addColumn("summary_stats", d.jsonType)
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("verification_runs_name_idx")
    .on("verification_runs")
    .column("run_name")
    .execute();
  await db.schema
    .createIndex("verification_runs_benchmark_idx")
    .on("verification_runs")
    .columns(["benchmark_id", "created_at"])
    .execute();
  await db.schema
    .createTable("import_metadata")
    .addColumn("id", "integer", d.identity)
    .addColumn("run_id", "text", (c) => c.notNull().references("verification_runs.id").onDelete("cascade"))
    .addColumn("import_source", "text", (c) => c.notNull())
    .addColumn("source_format_version", "text", (c) => c.notNull())
    .addColumn("source_filename", "text")
    .addColumn("source_job_id", "text")
    .addColumn("source_export_timestamp", "text")
    .addColumn("source_karenina_version", "text")
    .addColumn("results_count", "integer", (c) => c.notNull())
    .addColumn("shared_rubric_definition", d.jsonType)
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
}

async function createResultsTable(db: AnyDb, d: Dialect): Promise<void> {
  await db.schema
    .createTable("verification_results")
    .addColumn("id", "integer", d.identity)
    .addColumn("run_id", "text", (c) => c.notNull().references("verification_runs.id").onDelete("cascade"))
    .addColumn("result_id", "text", (c) => c.notNull())
    .addColumn("question_id", "text", (c) => c.notNull().references("questions.id"))
    .addColumn("template_id", "text", (c) => c.notNull())
    .addColumn("answering_interface", "text", (c) => c.notNull())
    .addColumn("answering_model_name", "text", (c) => c.notNull())
    .addColumn("parsing_interface", "text", (c) => c.notNull())
    .addColumn("parsing_model_name", "text", (c) => c.notNull())
    .addColumn("replicate", "integer")
    .addColumn("timestamp", "text", (c) => c.notNull())
    .addColumn("run_name", "text")
    .addColumn("verify_result", "boolean")
    .addColumn("completed_without_errors", "boolean", (c) => c.notNull())
    .addColumn("failure_category", "text")
    .addColumn("failure_stage", "text")
    .addColumn("execution_time", "double precision", (c) => c.notNull())
    .addColumn("input_tokens", "integer")
    .addColumn("output_tokens", "integer")
    .addColumn("total_tokens", "integer")
    .addColumn("result_json", d.jsonType, (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addUniqueConstraint("verification_results_run_result_key", ["run_id", "result_id"])
    .execute();
  const indexes: ReadonlyArray<readonly [string, readonly string[]]> = [
    ["verification_results_run_question_idx", ["run_id", "question_id"]],
    ["verification_results_question_idx", ["question_id", "answering_model_name", "timestamp"]],
    ["verification_results_template_idx", ["template_id"]],
    ["verification_results_answering_idx", ["answering_interface", "answering_model_name"]],
    ["verification_results_parsing_idx", ["parsing_interface", "parsing_model_name"]],
    ["verification_results_timestamp_idx", ["timestamp"]],
    ["verification_results_verify_idx", ["verify_result"]],
    ["verification_results_failure_idx", ["failure_category", "failure_stage"]],
  ];
  for (const [name, columns] of indexes) {
    await db.schema
      .createIndex(name)
      .on("verification_results")
      .columns([...columns])
      .execute();
  }
}

async function createViews(db: AnyDb, d: Dialect, names: readonly string[]): Promise<void> {
  for (const [name, definition] of viewDefinitions(d, names)) {
    await db.schema.dropView(name).ifExists().execute();
    await sql.raw(definition).execute(db);
  }
}

async function initialSchema(db: AnyDb, d: Dialect): Promise<void> {
  await createBenchmarkTables(db, d);
  await createRunTables(db, d);
  await createResultsTable(db, d);
  await createViews(db, d, INITIAL_VIEWS);
}

// Pages of a run's results are read in saving order (run, then row id): this index serves them without a scan.
async function runResultsOrderIndex(db: AnyDb): Promise<void> {
  await db.schema
    .createIndex("verification_results_run_order_idx")
    .on("verification_results")
    .columns(["run_id", "id"])
    .execute();
}

/** The views of the first schema; the others came with 0003. */
const INITIAL_VIEWS = ["template_results_view", "models_used_view"];

// The template each question had when its membership row was first saved (spec 06 §4.2), filled for rows saved
// before it existed with their template; and the rest of the original's views (spec 06 §4.3).
async function originalTemplateAndViews(db: AnyDb, d: Dialect): Promise<void> {
  await db.schema.alterTable("benchmark_questions").addColumn("original_answer_template", "text").execute();
  await sql`UPDATE benchmark_questions SET original_answer_template = answer_template`.execute(db);
  await createViews(
    db,
    d,
    VIEW_NAMES.filter((name) => !INITIAL_VIEWS.includes(name)),
  );
}

// The server's jobs (spec 07 §2.4): a row per job so a restarted server lists them and resumes the interrupted.
async function serverJobs(db: AnyDb, d: Dialect): Promise<void> {
  await db.schema
    .createTable("server_jobs")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("input", d.jsonType, (c) => c.notNull())
    .addColumn("progress", d.jsonType)
    .addColumn("outcome", d.jsonType)
    .addColumn("error_message", "text")
    .addColumn("run_id", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("started_at", "text")
    .addColumn("finished_at", "text")
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("server_jobs_kind_status_idx")
    .on("server_jobs")
    .columns(["kind", "status", "created_at"])
    .execute();
}

/** Rows read per step of the digest backfill. */
const BACKFILL_BATCH = 500;

/** The digest of a stored result's JSON, or null when the row does not hold a valid result (left to readers). */
function digestOf(resultJson: string): string | null {
  try {
    return digestJson(parseVerificationResult(JSON.parse(resultJson)));
  } catch {
    return null;
  }
}

// Each result's digest (results/result-digest.ts) beside its JSON, so that a summary of a large run reads a
// few hundred bytes per row and needs no validation (the row was validated when saved). Rows already stored
// get theirs here; a row that no longer validates keeps none, and readers take its whole JSON (and report it).
async function resultDigests(db: AnyDb): Promise<void> {
  await db.schema.alterTable("verification_results").addColumn("digest_json", "text").execute();
  await db.schema.alterTable("verification_results").addColumn("digest_version", "integer").execute();
  await fillDigests(db);
}

/** Writes the current digest of every row whose digest is missing or of another version. */
async function fillDigests(db: AnyDb): Promise<void> {
  for (let after = 0; ; ) {
    const rows: { id: number; result_json: string }[] = await db
      .selectFrom("verification_results")
      .select(["id", "result_json"])
      .where("id", ">", after)
      .where((eb) =>
        eb.or([eb("digest_version", "is", null), eb("digest_version", "!=", RESULT_DIGEST_VERSION)]),
      )
      .orderBy("id")
      .limit(BACKFILL_BATCH)
      .execute();
    for (const row of rows) {
      const digest = digestOf(String(row.result_json));
      if (digest === null) continue;
      await db
        .updateTable("verification_results")
        .set({ digest_json: digest, digest_version: RESULT_DIGEST_VERSION })
        .where("id", "=", row.id)
        .execute();
    }
    if (rows.length < BACKFILL_BATCH) return;
    after = Number(rows.at(-1)?.id);
  }
}

// Digest version 2 (results/result-digest.ts): only the fields the aggregate views read, stored as ASCII-only
// JSON. Rows written with version 1 get theirs here; readers would otherwise read them whole.
const compactDigests = (db: AnyDb) => fillDigests(db);

// Digests in a narrow table of their own (result_pk = the results row's id): stored after the result's JSON in
// its row, a digest was read by walking that JSON's overflow pages, which took a summary of 100,000 SQLite rows
// most of its read time. Current digests move over; the others are computed (fillResultDigests).
async function digestTable(db: AnyDb): Promise<void> {
  await db.schema
    .createTable("result_digests")
    .addColumn("result_pk", "integer", (c) =>
      c.primaryKey().references("verification_results.id").onDelete("cascade"),
    )
    .addColumn("digest_version", "integer", (c) => c.notNull())
    .addColumn("digest_json", "text", (c) => c.notNull())
    .execute();
  await sql`INSERT INTO result_digests (result_pk, digest_version, digest_json)
    SELECT id, digest_version, digest_json FROM verification_results
    WHERE digest_json IS NOT NULL AND digest_version = ${RESULT_DIGEST_VERSION}`.execute(db);
  await db.schema.alterTable("verification_results").dropColumn("digest_json").execute();
  await db.schema.alterTable("verification_results").dropColumn("digest_version").execute();
  await fillResultDigests(db);
}

/**
 * Writes the current digest of every results row whose digest (in result_digests) is missing or of another
 * version; a row that does not validate keeps none (readers read it whole, and report it). A migration that
 * changes `RESULT_DIGEST_VERSION` calls this.
 */
async function fillResultDigests(db: AnyDb): Promise<void> {
  for (let after = 0; ; ) {
    const rows: { id: number; result_json: string }[] = await db
      .selectFrom("verification_results as r")
      .leftJoin("result_digests as d", "d.result_pk", "r.id")
      .select(["r.id", "r.result_json"])
      .where("r.id", ">", after)
      .where((eb) =>
        eb.or([eb("d.digest_version", "is", null), eb("d.digest_version", "!=", RESULT_DIGEST_VERSION)]),
      )
      .orderBy("r.id")
      .limit(BACKFILL_BATCH)
      .execute();
    const digests = rows.flatMap((row) => {
      const digest = digestOf(String(row.result_json));
      return digest === null
        ? []
        : [{ result_pk: Number(row.id), digest_version: RESULT_DIGEST_VERSION, digest_json: digest }];
    });
    if (digests.length > 0)
      await db
        .insertInto("result_digests")
        .values(digests)
        .onConflict((conflict) =>
          conflict.column("result_pk").doUpdateSet((eb) => ({
            digest_version: eb.ref("excluded.digest_version"),
            digest_json: eb.ref("excluded.digest_json"),
          })),
        )
        .execute();
    if (rows.length < BACKFILL_BATCH) return;
    after = Number(rows.at(-1)?.id);
  }
}

// Whether a run was created by a results import (spec 07 §2.2 `is_imported`); the runs imported before it are
// those with an import_metadata record.
async function runImportedFlag(db: AnyDb, d: Dialect): Promise<void> {
  await db.schema
    .alterTable("verification_runs")
    .addColumn("is_imported", "boolean", (c) => c.notNull().defaultTo(d.bool(false)))
    .execute();
  await sql`UPDATE verification_runs SET is_imported = ${d.bool(true)}
    WHERE id IN (SELECT run_id FROM import_metadata)`.execute(db);
}

// The results table's row per result (result-table/table-row.ts) in a narrow table, filled on first read of a
// run (storage/result-table-rows.ts) rather than here: computing it reads each result's whole JSON, which an
// upgrade should not pay for runs nobody opens.
async function resultTableRows(db: AnyDb): Promise<void> {
  await db.schema
    .createTable("result_table_rows")
    .addColumn("result_pk", "integer", (c) =>
      c.primaryKey().references("verification_results.id").onDelete("cascade"),
    )
    .addColumn("run_id", "text", (c) => c.notNull())
    .addColumn("row_version", "integer", (c) => c.notNull())
    .addColumn("row_json", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("result_table_rows_run_idx")
    .on("result_table_rows")
    .columns(["run_id", "result_pk"])
    .execute();
}

// A finished run's summary (`summarizeResults` of its rows), stored so a summary by reference does not read
// 100,000 digests again (storage/run-summaries.ts); valid while the run's result count and last row id match.
async function runSummaries(db: AnyDb): Promise<void> {
  await db.schema
    .createTable("run_summaries")
    .addColumn("run_id", "text", (c) => c.primaryKey().references("verification_runs.id").onDelete("cascade"))
    .addColumn("format_version", "integer", (c) => c.notNull())
    .addColumn("result_count", "integer", (c) => c.notNull())
    .addColumn("last_result_pk", "integer")
    .addColumn("summary_json", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
}

// A scenario benchmark's scenarios (root `hasPart`, spec 08 §2.13) as rows of their own, one per entry, as its
// questions are; the benchmark's stored document keeps `hasPart: []` in their place. The scenarios of benchmarks
// saved before move out of their `metadata_json` here.
async function benchmarkScenarios(db: AnyDb, d: Dialect): Promise<void> {
  await db.schema
    .createTable("benchmark_scenarios")
    .addColumn("id", "integer", d.identity)
    .addColumn("benchmark_id", "integer", (c) => c.notNull().references("benchmarks.id").onDelete("cascade"))
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("scenario_json", d.jsonType, (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addUniqueConstraint("benchmark_scenarios_position_key", ["benchmark_id", "position"])
    .execute();
  const benchmarks: { id: number; metadata_json: unknown; updated_at: string }[] = await db
    .selectFrom("benchmarks")
    .select(["id", "metadata_json", "updated_at"])
    .execute();
  for (const row of benchmarks) await moveScenariosToRows(db, row);
}

/** Moves the `hasPart` entries of one stored benchmark's document into `benchmark_scenarios`. */
async function moveScenariosToRows(
  db: AnyDb,
  row: { id: number; metadata_json: unknown; updated_at: string },
): Promise<void> {
  const text = String(row.metadata_json);
  const metadata = JSON.parse(text) as { checkpoint?: { hasPart?: unknown } };
  const entries = metadata.checkpoint?.hasPart;
  if (!Array.isArray(entries) || entries.length === 0) return;
  const scenarios = entries.map((entry: unknown, position) => {
    const name = (entry as { name?: unknown } | null)?.name;
    return {
      benchmark_id: row.id,
      position,
      name: typeof name === "string" ? name : "",
      scenario_json: JSON.stringify(entry),
      created_at: row.updated_at,
    };
  });
  for (const slice of chunks(scenarios)) await db.insertInto("benchmark_scenarios").values(slice).execute();
  (metadata.checkpoint as { hasPart: unknown[] }).hasPart = [];
  await db
    .updateTable("benchmarks")
    .set({ metadata_json: JSON.stringify(metadata) })
    .where("id", "=", row.id)
    .execute();
}

/** Every migration, oldest first; names sort in the order they run (append the next one at the end). */
const MIGRATIONS: ReadonlyArray<readonly [string, (db: AnyDb, d: Dialect) => Promise<void>]> = [
  ["0001_initial", initialSchema],
  ["0002_run_results_order", runResultsOrderIndex],
  ["0003_original_template_and_views", originalTemplateAndViews],
  ["0004_server_jobs", serverJobs],
  ["0005_result_digests", (db) => resultDigests(db)],
  ["0006_compact_result_digests", (db) => compactDigests(db)],
  ["0007_result_digest_table", (db) => digestTable(db)],
  ["0008_run_imported_flag", runImportedFlag],
  ["0009_result_table_rows", (db) => resultTableRows(db)],
  ["0010_run_summaries", (db) => runSummaries(db)],
  ["0011_benchmark_scenarios", benchmarkScenarios],
];

const KNOWN_MIGRATIONS = MIGRATIONS.map(([name]) => name);

function migrationsFor(d: Dialect): Record<string, Migration> {
  return Object.fromEntries(MIGRATIONS.map(([name, up]) => [name, { up: (db: AnyDb) => up(db, d) }]));
}

/** A schema version: the number a migration's name starts with. */
const versionOf = (name: string) => Number.parseInt(name, 10);

/** The schema version this code builds (the number of its newest migration). */
export const SCHEMA_VERSION = versionOf(KNOWN_MIGRATIONS.at(-1) ?? "0");

/** Tables this schema creates, to recognise a database holding them without our migrations table. */
const OUR_TABLES = [
  "benchmarks",
  "questions",
  "benchmark_questions",
  "benchmark_scenarios",
  "verification_runs",
  "verification_results",
];

/** Whether the database has karenina's migrations table, so karenina made it (whatever its schema version). */
export async function hasKareninaSchema(db: AnyDb): Promise<boolean> {
  return (await db.introspection.getTables()).some((table) => table.name === MIGRATION_TABLE);
}

/** Refuses a database whose schema is newer than ours or was not built by our migrations; changes nothing. */
async function refuseUnknownSchema(db: AnyDb, database: string): Promise<void> {
  const tables = new Set((await db.introspection.getTables()).map((table) => table.name));
  if (!tables.has(MIGRATION_TABLE)) {
    const ours = OUR_TABLES.filter((name) => tables.has(name));
    if (ours.length === 0) return;
    throw new StorageSchemaError(
      database,
      `the database holds tables named as karenina's (${ours.join(", ")}) but no ${MIGRATION_TABLE} table, so ` +
        "this karenina did not create it (the Python Karenina's schema is different). Nothing was changed; " +
        "use a new database file or an empty PostgreSQL database",
    );
  }
  const executed: string[] = (await db.selectFrom(MIGRATION_TABLE).select("name").execute()).map(
    (row) => row.name,
  );
  const unknown = executed.filter((name) => !KNOWN_MIGRATIONS.includes(name)).sort();
  if (unknown.length === 0) return;
  const newest = unknown.at(-1) as string;
  const version = Number.isNaN(versionOf(newest)) ? "an unknown version" : `version ${versionOf(newest)}`;
  throw new StorageSchemaError(
    database,
    `the database schema is at ${version} (migration ${newest}), newer than this karenina ` +
      `understands (schema version ${SCHEMA_VERSION}). Nothing was changed; upgrade karenina to open it`,
  );
}

/**
 * Brings the database's schema to {@link SCHEMA_VERSION}, running the missing migrations in one transaction
 * (so concurrent openers wait for each other). A newer or foreign schema is refused before anything is
 * written; existing data is never dropped.
 * @throws {StorageSchemaError}
 */
export async function migrateToLatest(db: AnyDb, d: Dialect, database: string): Promise<void> {
  await refuseUnknownSchema(db, database);
  const migrations = migrationsFor(d);
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    migrationTableName: MIGRATION_TABLE,
    migrationLockTableName: MIGRATION_LOCK_TABLE,
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error === undefined) return;
  await refuseUnknownSchema(db, database);
  const failed = results?.find((result) => result.status === "Error")?.migrationName;
  throw new StorageSchemaError(
    database,
    `could not bring the schema to version ${SCHEMA_VERSION}${failed ? ` (migration ${failed})` : ""}: ${causeText(error)}`,
    { cause: error },
  );
}
