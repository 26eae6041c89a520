import type pg from "pg";
import { z } from "zod";
import { PriceTableSchema, type RunStatsSnapshot } from "../pipeline/index.js";
import { TEMPLATE_ISOLATIONS } from "../templates/index.js";

/** The states of a distributed run. */
export const FLEET_RUN_STATUSES = ["running", "cancelled", "completed"] as const;
export type FleetRunStatus = (typeof FLEET_RUN_STATUSES)[number];

/** What every worker needs to run a distributed run's tasks as the planner meant them, besides the config. */
export const FleetRunSettingsSchema = z.object({
  /** The run's name: its results' `run_name`, and the id of its stored run. */
  runName: z.string().min(1),
  /** The questions the planner selected (finished ones, or drafts too), in benchmark order. */
  questionIds: z.array(z.string()),
  includeDrafts: z.boolean(),
  isolation: z.enum(TEMPLATE_ISOLATIONS),
  /** The workspace root as the planner saw it; each worker may point at its own copy (`--workspace-root`). */
  workspaceRoot: z.string().nullable(),
  agentCommands: z.boolean(),
  /**
   * The environment variable holding the key of the run's `openai_endpoint` models on every worker (null: the
   * placeholder key local servers accept). Keys themselves are never stored.
   */
  endpointKeyEnv: z.string().nullable(),
  /** Concurrency caps per endpoint key, held by all workers together. */
  endpointLimits: z.record(z.string(), z.number().int().min(1)),
  prices: PriceTableSchema.nullable(),
  /** Share LLM responses between workers in a database table. */
  sharedCache: z.boolean(),
  cacheMode: z.enum(["use", "refresh"]),
});
export type FleetRunSettings = z.infer<typeof FleetRunSettingsSchema>;

/** One queue job: an answer group of a run (see `AnswerGroup`), the unit a worker takes. */
export const FleetJobSchema = z.object({
  runId: z.string().min(1),
  groupKey: z.string().min(1),
  questionId: z.string(),
  answerer: z.number().int().min(0),
  parsers: z.array(z.number().int().min(0)).min(1),
  replicate: z.number().int().min(1).nullable(),
  /** Enqueued by a resume: an earlier delivery of the group may have stored some of its results. */
  resumed: z.boolean().optional(),
});
export type FleetJob = z.infer<typeof FleetJobSchema>;

/** A distributed run as stored. */
export interface FleetRun {
  runId: string;
  queue: string;
  benchmarkName: string;
  /** The checkpoint as planned (JSON-LD text): every worker runs exactly these questions and templates. */
  checkpoint: string;
  /** The verification config, API keys left out (each worker reads its own from its environment). */
  config: Record<string, unknown>;
  settings: FleetRunSettings;
  status: FleetRunStatus;
  tasksTotal: number;
  groupsTotal: number;
  groupsDone: number;
  groupErrors: number;
  stats: RunStatsSnapshot;
  createdAt: Date;
  updatedAt: Date;
}

/** A run's progress, as a follower polls it. */
export type FleetProgress = Omit<FleetRun, "checkpoint" | "config" | "settings">;

/** What a worker learns when it takes a group delivered again (a first delivery takes it without asking). */
export interface GroupClaim {
  /** The group was finished by an earlier delivery. */
  finished: boolean;
  /** Deliveries of the group recorded so far, this one included. */
  deliveries: number;
  runStatus: FleetRunStatus;
}

/** How a worker ends a group. */
export interface GroupEnd {
  worker: string;
  /** When this delivery of the group started (kept when an earlier one set it). */
  startedAt: Date;
  /** The group's deliveries as the queue counted them, this one included. */
  deliveries: number;
  /** Why the group's tasks have no results (null: they all do). */
  error: string | null;
  /** The calls this delivery made. */
  stats: RunStatsSnapshot;
}

type Queryable = pg.Pool | pg.PoolClient;

const PROGRESS_COLUMNS = `run_id, queue, benchmark_name, status, tasks_total, groups_total, groups_done,
  group_errors, calls, replayed_calls, cache_hits, input_tokens, output_tokens, cost_usd, unpriced_calls,
  created_at, updated_at`;

function progressOf(row: Record<string, unknown>): FleetProgress {
  return {
    runId: String(row.run_id),
    queue: String(row.queue),
    benchmarkName: String(row.benchmark_name),
    status: row.status as FleetRunStatus,
    tasksTotal: Number(row.tasks_total),
    groupsTotal: Number(row.groups_total),
    groupsDone: Number(row.groups_done),
    groupErrors: Number(row.group_errors),
    stats: {
      calls: Number(row.calls),
      replayedCalls: Number(row.replayed_calls),
      cacheHits: Number(row.cache_hits),
      inputTokens: Number(row.input_tokens),
      outputTokens: Number(row.output_tokens),
      costUsd: Number(row.cost_usd),
      unpricedCalls: Number(row.unpriced_calls),
    },
    createdAt: row.created_at as Date,
    updatedAt: row.updated_at as Date,
  };
}

/** Rows inserted per statement when a run's groups are written. */
const GROUP_CHUNK = 5_000;

async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    const value = await work(client);
    await client.query("COMMIT");
    return value;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/** Marks groups to do (again): new rows, or rows reset to unfinished. */
async function upsertGroups(client: Queryable, runId: string, keys: readonly string[]): Promise<void> {
  for (let start = 0; start < keys.length; start += GROUP_CHUNK) {
    await client.query(
      `INSERT INTO karenina_fleet_groups (run_id, group_key)
       SELECT $1, key FROM unnest($2::text[]) AS key
       ON CONFLICT (run_id, group_key) DO UPDATE SET finished_at = NULL, error = NULL`,
      [runId, keys.slice(start, start + GROUP_CHUNK)],
    );
  }
}

/** Sets a run's group counts from its group rows. */
async function recountGroups(client: Queryable, runId: string): Promise<void> {
  await client.query(
    `UPDATE karenina_fleet_runs r SET
       groups_total = c.total, groups_done = c.done, group_errors = c.errors, updated_at = now()
     FROM (SELECT count(*) AS total, count(finished_at) AS done, count(error) AS errors
           FROM karenina_fleet_groups WHERE run_id = $1) c
     WHERE r.run_id = $1`,
    [runId],
  );
}

/** A new distributed run: what {@link FleetRuns.create} stores, with the keys of its answer groups. */
export type NewFleetRun = Pick<
  FleetRun,
  "runId" | "queue" | "benchmarkName" | "checkpoint" | "config" | "settings" | "tasksTotal"
> & { groupKeys: readonly string[] };

/** Call counters at zero: a group that made no call. */
export const NO_CALLS: RunStatsSnapshot = {
  calls: 0,
  replayedCalls: 0,
  cacheHits: 0,
  inputTokens: 0,
  outputTokens: 0,
  costUsd: 0,
  unpricedCalls: 0,
};

/**
 * The fleet's bookkeeping in PostgreSQL: each distributed run (its checkpoint, config and settings, so any
 * worker can run its tasks), its answer groups (first delivery, end, error), and its counters. Results
 * themselves are stored by `Storage.saveResults`, by `result_id`.
 */
export class FleetRuns {
  constructor(private readonly pool: pg.Pool) {}

  /** Stores a new run and its groups, `running`. */
  async create(run: NewFleetRun): Promise<void> {
    await inTransaction(this.pool, async (client) => {
      await client.query(
        `INSERT INTO karenina_fleet_runs (run_id, queue, benchmark_name, checkpoint, config, settings,
           tasks_total, groups_total, status)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'running')`,
        [
          run.runId,
          run.queue,
          run.benchmarkName,
          run.checkpoint,
          JSON.stringify(run.config),
          JSON.stringify(run.settings),
          run.tasksTotal,
          run.groupKeys.length,
        ],
      );
      await upsertGroups(client, run.runId, run.groupKeys);
    });
  }

  /**
   * Resumes a run: the groups still to do become unfinished again, the run `running` and its counts recounted.
   * @returns false when there is no such run.
   */
  async resume(runId: string, groupKeys: readonly string[]): Promise<boolean> {
    return inTransaction(this.pool, async (client) => {
      const found = await client.query(
        "UPDATE karenina_fleet_runs SET status = 'running', updated_at = now() WHERE run_id = $1",
        [runId],
      );
      if (found.rowCount === 0) return false;
      await upsertGroups(client, runId, groupKeys);
      await recountGroups(client, runId);
      return true;
    });
  }

  /** A stored run, or null. */
  async get(runId: string): Promise<FleetRun | null> {
    const { rows } = await this.pool.query(
      `SELECT ${PROGRESS_COLUMNS}, checkpoint, config, settings FROM karenina_fleet_runs WHERE run_id = $1`,
      [runId],
    );
    const row = rows[0] as Record<string, unknown> | undefined;
    if (row === undefined) return null;
    return {
      ...progressOf(row),
      checkpoint: String(row.checkpoint),
      config: row.config as Record<string, unknown>,
      settings: FleetRunSettingsSchema.parse(row.settings),
    };
  }

  /** A run's progress, or null. */
  async progress(runId: string): Promise<FleetProgress | null> {
    const { rows } = await this.pool.query(
      `SELECT ${PROGRESS_COLUMNS} FROM karenina_fleet_runs WHERE run_id = $1`,
      [runId],
    );
    return rows[0] === undefined ? null : progressOf(rows[0]);
  }

  /** The runs, newest first. */
  async list(limit = 50): Promise<FleetProgress[]> {
    const { rows } = await this.pool.query(
      `SELECT ${PROGRESS_COLUMNS} FROM karenina_fleet_runs ORDER BY created_at DESC, run_id LIMIT $1`,
      [limit],
    );
    return rows.map(progressOf);
  }

  /** The status of each of these runs that exists. */
  async statuses(runIds: readonly string[]): Promise<Map<string, FleetRunStatus>> {
    const { rows } = await this.pool.query(
      "SELECT run_id, status FROM karenina_fleet_runs WHERE run_id = ANY($1::text[])",
      [runIds],
    );
    return new Map(rows.map((row) => [String(row.run_id), row.status as FleetRunStatus]));
  }

  /**
   * Cancels a running run: workers stop its tasks in flight (they rerun on resume) and skip its queued jobs.
   * @returns the run's status after the call, or null when there is no such run.
   */
  async cancel(runId: string): Promise<FleetRunStatus | null> {
    const { rows } = await this.pool.query(
      `UPDATE karenina_fleet_runs SET status = CASE WHEN status = 'running' THEN 'cancelled' ELSE status END,
         updated_at = now() WHERE run_id = $1 RETURNING status`,
      [runId],
    );
    return rows[0] === undefined ? null : (rows[0].status as FleetRunStatus);
  }

  /**
   * A worker takes a group delivered again (or enqueued by a resume), to learn whether an earlier delivery
   * finished it and whether its run still runs; its deliveries are counted. Null when the run or the group is
   * unknown (deleted).
   */
  async claimGroup(runId: string, groupKey: string, worker: string): Promise<GroupClaim | null> {
    const { rows } = await this.pool.query({
      // Named, as the group's end: PostgreSQL plans each once per connection, not at every group.
      name: "karenina_fleet_claim_group",
      text: `UPDATE karenina_fleet_groups g SET started_at = coalesce(g.started_at, now()),
         deliveries = g.deliveries + 1, worker = $3
       FROM karenina_fleet_runs r
       WHERE g.run_id = $1 AND g.group_key = $2 AND r.run_id = g.run_id
       RETURNING g.finished_at, g.deliveries, r.status`,
      values: [runId, groupKey, worker],
    });
    const row = rows[0];
    if (row === undefined) return null;
    return {
      finished: row.finished_at !== null,
      deliveries: Number(row.deliveries),
      runStatus: row.status as FleetRunStatus,
    };
  }

  /**
   * A worker ends a group (once: a second end of the same group changes nothing but the call counters) and
   * adds its calls to the run's counters; the run becomes `completed` with its last group.
   * @returns whether this end completed the run.
   */
  async finishGroup(runId: string, groupKey: string, end: GroupEnd): Promise<{ completedRun: boolean }> {
    const { stats } = end;
    const { rows } = await this.pool.query({
      name: "karenina_fleet_finish_group",
      text: `WITH ended AS (
         UPDATE karenina_fleet_groups SET finished_at = now(), error = $3, worker = $4,
           started_at = coalesce(started_at, $12), deliveries = greatest(deliveries, $13)
         WHERE run_id = $1 AND group_key = $2 AND finished_at IS NULL RETURNING error
       ), counts AS (SELECT count(*) AS n, count(error) AS errors FROM ended)
       UPDATE karenina_fleet_runs r SET
         groups_done = r.groups_done + counts.n,
         group_errors = r.group_errors + counts.errors,
         status = CASE WHEN r.status = 'running' AND counts.n > 0 AND r.groups_done + counts.n >= r.groups_total
                  THEN 'completed' ELSE r.status END,
         calls = r.calls + $5, replayed_calls = r.replayed_calls + $6, cache_hits = r.cache_hits + $7,
         input_tokens = r.input_tokens + $8, output_tokens = r.output_tokens + $9,
         cost_usd = r.cost_usd + $10, unpriced_calls = r.unpriced_calls + $11, updated_at = now()
       FROM counts WHERE r.run_id = $1
       RETURNING r.status, counts.n AS ended`,
      values: [
        runId,
        groupKey,
        end.error,
        end.worker,
        stats.calls,
        stats.replayedCalls,
        stats.cacheHits,
        stats.inputTokens,
        stats.outputTokens,
        stats.costUsd,
        stats.unpricedCalls,
        end.startedAt,
        end.deliveries,
      ],
    });
    const row = rows[0];
    return { completedRun: row !== undefined && row.status === "completed" && Number(row.ended) > 0 };
  }

  /** Errors of a run's groups (the first `limit`), as `group: error`. */
  async groupErrors(
    runId: string,
    limit = 20,
  ): Promise<{ groupKey: string; worker: string | null; error: string }[]> {
    const { rows } = await this.pool.query(
      `SELECT group_key, worker, error FROM karenina_fleet_groups
       WHERE run_id = $1 AND error IS NOT NULL ORDER BY finished_at LIMIT $2`,
      [runId, limit],
    );
    return rows.map((row) => ({
      groupKey: String(row.group_key),
      worker: row.worker === null ? null : String(row.worker),
      error: String(row.error),
    }));
  }

  /**
   * Ends a run's unfinished groups with `error` (their jobs were lost: the queue failed them after too many
   * worker deaths); the run completes. Resume runs them again.
   */
  async abandonUnfinished(runId: string, error: string): Promise<number> {
    return inTransaction(this.pool, async (client) => {
      const ended = await client.query(
        `UPDATE karenina_fleet_groups SET finished_at = now(), error = $2
         WHERE run_id = $1 AND finished_at IS NULL`,
        [runId, error],
      );
      await recountGroups(client, runId);
      await client.query(
        `UPDATE karenina_fleet_runs SET status = 'completed' WHERE run_id = $1 AND status = 'running'
           AND groups_done >= groups_total`,
        [runId],
      );
      return ended.rowCount ?? 0;
    });
  }
}
