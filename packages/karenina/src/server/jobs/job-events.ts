import { z } from "zod";
import { JOB_STATUSES } from "../../storage/index.js";

/** The event types of the progress stream (spec 07 §2.3, with our `task_failed` and `job_cancelled` always). */
export const JOB_EVENT_TYPES = [
  "snapshot",
  "job_started",
  "task_started",
  "task_completed",
  "task_failed",
  "job_completed",
  "job_failed",
  "job_cancelled",
] as const;
export type JobEventType = (typeof JOB_EVENT_TYPES)[number];

/** The tokens of one task (its result's usage summed over stages). */
export const TaskUsageSchema = z
  .object({ input_tokens: z.number().int(), output_tokens: z.number().int(), total_tokens: z.number().int() })
  .meta({ id: "TaskUsage" });
export type TaskUsage = z.infer<typeof TaskUsageSchema>;

/** A job's running token and cost totals over its finished tasks (an earlier attempt's included). */
export const JobUsageTotalsSchema = TaskUsageSchema.extend({
  cost_usd: z.number().describe("The summed cost in USD of the priced tasks only"),
  priced: z.number().int().describe("Tasks whose every model has a known price (counted in cost_usd)"),
  unpriced: z
    .number()
    .int()
    .describe("Tasks with a model of unknown price (their tokens count, not their cost)"),
}).meta({ id: "JobUsageTotals" });
export type JobUsageTotals = z.infer<typeof JobUsageTotalsSchema>;

/**
 * A job's progress as every event and `GET …/progress` carry it (spec 07 §2.3 common fields). Times are epoch
 * seconds; `in_progress_questions` holds task keys (one per running task, so two models on one question are two
 * entries).
 */
export const JobProgressSchema = z
  .object({
    job_id: z.string(),
    kind: z.string(),
    status: z.enum(JOB_STATUSES),
    percentage: z.number().describe("0 to 100"),
    processed: z.number().int().describe("Tasks finished, including those of an earlier attempt"),
    total: z.number().int().describe("Tasks planned (0 until the job has planned them)"),
    successful: z.number().int(),
    failed: z.number().int(),
    in_progress_questions: z.array(z.string()),
    current_question: z.string().nullable(),
    start_time: z.number().nullable(),
    duration_seconds: z.number().nullable(),
    last_task_duration: z.number().nullable(),
    error: z.string().nullable(),
    usage_totals: JobUsageTotalsSchema.nullable().describe(
      "Running token and cost totals (verification jobs); null for kinds that do not report usage",
    ),
  })
  .meta({ id: "JobProgress" });
export type JobProgress = z.infer<typeof JobProgressSchema>;

/** One event of a job's stream: its type, the job's progress after it, `seq` (from 1, per job), `ts` (epoch ms). */
export const JobEventSchema = JobProgressSchema.extend({
  type: z.enum(JOB_EVENT_TYPES),
  seq: z.number().int().describe("Monotonic per job; a snapshot carries the seq of the last event"),
  ts: z.number().describe("Epoch milliseconds"),
  usage: TaskUsageSchema.nullable()
    .optional()
    .describe("`task_completed` of a verification job: the task's tokens (null when it recorded none)"),
  cost_usd: z
    .number()
    .nullable()
    .optional()
    .describe(
      "`task_completed` of a verification job: the task's cost in USD, null when a model has no price",
    ),
})
  .catchall(z.unknown())
  .meta({ id: "JobEvent" });
export type JobEvent = JobProgress & {
  type: JobEventType;
  seq: number;
  ts: number;
  [extra: string]: unknown;
};

/** A task a job reports on: its key (unique in the job), its question, and its replicate when it has one. */
export interface JobTask {
  readonly key: string;
  readonly question_id: string;
  readonly replicate?: number | null;
}
