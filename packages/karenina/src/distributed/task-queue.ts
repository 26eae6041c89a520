import { createHash } from "node:crypto";
import type {
  Job,
  JobProgress,
  PostgresConnectionOptions,
  PostgresQueueBackend,
  Queue,
  Worker,
} from "bullmq";
import { type FleetJob, FleetJobSchema } from "./fleet-runs.js";

/** The queue a fleet uses unless told otherwise. */
export const DEFAULT_QUEUE = "karenina";

/** How long a worker's hold on a job lasts without renewal, and how often workers look for lapsed holds. */
export interface QueueLease {
  /** Seconds; the worker renews its holds every half of it while it lives. Default 30. */
  leaseSeconds: number;
  /** Seconds between checks for jobs whose holder died. Default 15. */
  checkSeconds: number;
}

export const DEFAULT_LEASE: QueueLease = { leaseSeconds: 30, checkSeconds: 15 };

/** Jobs of one enqueue call per statement batch. */
const ENQUEUE_BATCH = 500;

/** BullMQ on PostgreSQL: loaded when a fleet command runs, so other commands start without it. */
async function bullmq() {
  return import("bullmq");
}

function connection(url: string): PostgresConnectionOptions {
  return { connectionString: url, migrate: true, max: 4 };
}

type PgQueue = Queue<
  FleetJob,
  unknown,
  string,
  unknown,
  unknown,
  string,
  PostgresQueueBackend,
  PostgresConnectionOptions
>;
type PgWorker = Worker<FleetJob, void, string, PostgresQueueBackend, JobProgress, PostgresConnectionOptions>;

/**
 * The job id of a group: the same for every enqueue of the group, so enqueueing a group whose job is still
 * queued (a resume right after a cancel) adds nothing.
 */
export function jobIdOf(job: Pick<FleetJob, "runId" | "groupKey">): string {
  return createHash("sha256").update(`${job.runId}\u0000${job.groupKey}`).digest("hex").slice(0, 40);
}

/** The producer side of a fleet's queue: what `verify --distributed` and `fleet resume` enqueue with. */
export class FleetQueue {
  private constructor(private readonly queue: PgQueue) {}

  static async open(url: string, name: string = DEFAULT_QUEUE): Promise<FleetQueue> {
    const { Queue, createPostgresBackend } = await bullmq();
    const queue = new Queue(name, { connection: connection(url) }, createPostgresBackend);
    try {
      await queue.waitUntilReady();
    } catch (error) {
      await queue.close().catch(() => {});
      throw error;
    }
    return new FleetQueue(queue);
  }

  /** Adds jobs; a job whose id is still queued is not added twice. */
  async enqueue(jobs: Iterable<FleetJob>): Promise<number> {
    let batch: FleetJob[] = [];
    let added = 0;
    const flush = async () => {
      if (batch.length === 0) return;
      await this.queue.addBulk(
        batch.map((data) => ({
          name: "group",
          data,
          opts: {
            jobId: jobIdOf(data),
            removeOnComplete: true,
            removeOnFail: true,
            attempts: 5,
            backoff: { type: "exponential", delay: 1_000 },
          },
        })),
      );
      added += batch.length;
      batch = [];
    };
    for (const job of jobs) {
      batch.push(job);
      if (batch.length >= ENQUEUE_BATCH) await flush();
    }
    await flush();
    return added;
  }

  /** Jobs waiting, delayed or held by a worker, over every run of the queue. */
  async pendingJobs(): Promise<number> {
    const counts = await this.queue.getJobCounts("waiting", "active", "delayed", "prioritized");
    return Object.values(counts).reduce((sum, n) => sum + n, 0);
  }

  close(): Promise<void> {
    return this.queue.close();
  }
}

/** One delivery of a job: which it is (1 for the first) and the signal BullMQ aborts it with. */
export interface JobDelivery {
  attempt: number;
  signal: AbortSignal | undefined;
}

/** What a consumer does with each job: resolves when the job is done (or skipped). */
export type JobHandler = (job: FleetJob, delivery: JobDelivery) => Promise<void>;

/** The consumer side: a BullMQ worker taking jobs of a queue, `concurrency` at a time. */
export class QueueConsumer {
  private constructor(private readonly worker: PgWorker) {}

  static async start(
    url: string,
    name: string,
    options: { concurrency: number; lease: QueueLease; handle: JobHandler; onError: (error: Error) => void },
  ): Promise<QueueConsumer> {
    const { Worker, createPostgresBackend } = await bullmq();
    const processor = async (job: Job, _token?: string, signal?: AbortSignal) => {
      // attemptsStarted counts every move to active: a retry and a delivery after a lapsed lease alike.
      await options.handle(FleetJobSchema.parse(job.data), { attempt: job.attemptsStarted, signal });
    };
    const worker = new Worker(
      name,
      processor,
      {
        connection: connection(url),
        concurrency: options.concurrency,
        lockDuration: options.lease.leaseSeconds * 1_000,
        stalledInterval: options.lease.checkSeconds * 1_000,
        maxStalledCount: 5,
        autorun: false,
      },
      createPostgresBackend,
    );
    worker.on("error", options.onError);
    await worker.waitUntilReady();
    void worker.run().catch(options.onError);
    return new QueueConsumer(worker);
  }

  /** Stops taking jobs; with `force` false, waits for the jobs in hand to finish. */
  close(force = false): Promise<void> {
    return this.worker.close(force);
  }
}
