import type { Selectable } from "kysely";
import { nowIso, type StorageContext } from "./context.js";
import { StorageNotFoundError } from "./errors.js";
import { jsonOrNull, type ServerJobsTable } from "./schema.js";

/**
 * The states of a server job (spec 07 §2.4). `interrupted`: it was pending or running when its server stopped
 * without finishing it (a crash, SIGKILL); it can be resumed.
 */
export const JOB_STATUSES = [
  "pending",
  "running",
  "completed",
  "failed",
  "cancelled",
  "interrupted",
] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** The states a job never leaves. */
export const FINAL_JOB_STATUSES: readonly JobStatus[] = ["completed", "failed", "cancelled"];

/** A stored job. */
export interface JobRow {
  readonly id: string;
  readonly kind: string;
  readonly status: JobStatus;
  readonly input: unknown;
  readonly progress: unknown;
  readonly outcome: unknown;
  readonly errorMessage: string | null;
  readonly runId: string | null;
  readonly createdAt: string;
  readonly startedAt: string | null;
  readonly finishedAt: string | null;
  readonly updatedAt: string;
}

/** A new job, for {@link createJob}. */
export interface NewJob {
  readonly id: string;
  readonly kind: string;
  readonly input: unknown;
  readonly runId?: string | null;
}

/** Fields {@link updateJob} changes (the others stay). */
export interface JobChanges {
  readonly status?: JobStatus;
  readonly progress?: unknown;
  readonly outcome?: unknown;
  readonly errorMessage?: string | null;
  readonly runId?: string | null;
  readonly startedAt?: string | null;
  readonly finishedAt?: string | null;
}

/** Which jobs {@link listJobs} lists: newest first. */
export interface JobQuery {
  readonly kind?: string;
  readonly status?: JobStatus;
  readonly limit?: number;
  readonly offset?: number;
}

const parseJson = (text: string | null): unknown => (text === null ? null : JSON.parse(text));

function jobOfRow(row: Selectable<ServerJobsTable>): JobRow {
  return {
    id: row.id,
    kind: row.kind,
    status: row.status as JobStatus,
    input: parseJson(row.input),
    progress: parseJson(row.progress),
    outcome: parseJson(row.outcome),
    errorMessage: row.error_message,
    runId: row.run_id,
    createdAt: row.created_at,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    updatedAt: row.updated_at,
  };
}

/** Stores a new job, `pending`. */
export async function createJob(ctx: StorageContext, job: NewJob): Promise<JobRow> {
  const now = nowIso();
  await ctx.db
    .insertInto("server_jobs")
    .values({
      id: job.id,
      kind: job.kind,
      status: "pending",
      input: JSON.stringify(job.input ?? null),
      progress: null,
      outcome: null,
      error_message: null,
      run_id: job.runId ?? null,
      created_at: now,
      started_at: null,
      finished_at: null,
      updated_at: now,
    })
    .execute();
  return requireJob(ctx, job.id);
}

/** A stored job, or null. */
export async function getJob(ctx: StorageContext, id: string): Promise<JobRow | null> {
  const row = await ctx.db.selectFrom("server_jobs").selectAll().where("id", "=", id).executeTakeFirst();
  return row ? jobOfRow(row) : null;
}

async function requireJob(ctx: StorageContext, id: string): Promise<JobRow> {
  const job = await getJob(ctx, id);
  if (job === null) throw new StorageNotFoundError(ctx.database, "job", id);
  return job;
}

/** Changes a stored job. @throws {StorageNotFoundError} for an unknown job. */
export async function updateJob(ctx: StorageContext, id: string, changes: JobChanges): Promise<void> {
  const set: Partial<ServerJobsTable> = { updated_at: nowIso() };
  if (changes.status !== undefined) set.status = changes.status;
  if (changes.progress !== undefined) set.progress = jsonOrNull(changes.progress);
  if (changes.outcome !== undefined) set.outcome = jsonOrNull(changes.outcome);
  if (changes.errorMessage !== undefined) set.error_message = changes.errorMessage;
  if (changes.runId !== undefined) set.run_id = changes.runId;
  if (changes.startedAt !== undefined) set.started_at = changes.startedAt;
  if (changes.finishedAt !== undefined) set.finished_at = changes.finishedAt;
  const updated = await ctx.db.updateTable("server_jobs").set(set).where("id", "=", id).executeTakeFirst();
  if (updated.numUpdatedRows === 0n) throw new StorageNotFoundError(ctx.database, "job", id);
}

function jobsQuery(ctx: StorageContext, query: JobQuery) {
  let select = ctx.db.selectFrom("server_jobs");
  if (query.kind !== undefined) select = select.where("kind", "=", query.kind);
  if (query.status !== undefined) select = select.where("status", "=", query.status);
  return select;
}

/** Stored jobs, newest first (ties by id, so pages never overlap). */
export async function listJobs(ctx: StorageContext, query: JobQuery = {}): Promise<JobRow[]> {
  let select = jobsQuery(ctx, query).selectAll().orderBy("created_at", "desc").orderBy("id", "desc");
  if (query.limit !== undefined || query.offset !== undefined) {
    select = select.limit(query.limit ?? Number.MAX_SAFE_INTEGER).offset(query.offset ?? 0);
  }
  return (await select.execute()).map(jobOfRow);
}

/** How many stored jobs match (limit and offset ignored). */
export async function countJobs(ctx: StorageContext, query: JobQuery = {}): Promise<number> {
  const row = await jobsQuery(ctx, query)
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * Marks `interrupted` every job of `kinds` still pending or running: called by a server starting, when no job
 * of its database can be running (their server died). Returns the ids marked.
 */
export async function interruptUnfinishedJobs(
  ctx: StorageContext,
  kinds: readonly string[],
): Promise<string[]> {
  if (kinds.length === 0) return [];
  const rows = await ctx.db
    .updateTable("server_jobs")
    .set({ status: "interrupted", updated_at: nowIso() })
    .where("status", "in", ["pending", "running"])
    .where("kind", "in", [...kinds])
    .returning("id")
    .execute();
  return rows.map((row) => row.id);
}
