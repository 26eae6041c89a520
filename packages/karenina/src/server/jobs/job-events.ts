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
  })
  .meta({ id: "JobProgress" });
export type JobProgress = z.infer<typeof JobProgressSchema>;

/** One event of a job's stream: its type, the job's progress after it, `seq` (from 1, per job), `ts` (epoch ms). */
export const JobEventSchema = JobProgressSchema.extend({
  type: z.enum(JOB_EVENT_TYPES),
  seq: z.number().int().describe("Monotonic per job; a snapshot carries the seq of the last event"),
  ts: z.number().describe("Epoch milliseconds"),
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
