/**
 * The queue engines the bench compares, behind one small interface: a producer (creates the queue, enqueues
 * tasks in bulk) and a consumer (fetches tasks with N in flight, runs a handler, marks them complete). Also
 * counts the client's database/Redis round trips by wrapping the drivers' send functions.
 */
import { createPostgresBackend, Queue, Worker } from "bullmq";
import { Redis } from "ioredis";
import pg from "pg";
import PgBoss from "pg-boss";

/**
 * - `pg-boss`: pg-boss 10 used through `fetch`/`complete` in our own loop, one per slot (a slot fetches as
 *   soon as it is free; it sleeps 500 ms only when the queue is empty).
 * - `pg-boss-work`: pg-boss 10's own `work()` loop (batchSize = concurrency, pollingIntervalSeconds = 0.5, its
 *   minimum): it waits out the polling interval after every batch, even when jobs are waiting.
 * - `bullmq-redis`: BullMQ 6 on Redis. `bullmq-pg`: BullMQ 6 on its PostgreSQL backend.
 */
export type EngineName = "pg-boss" | "pg-boss-work" | "bullmq-redis" | "bullmq-pg";

export interface EngineTarget {
  readonly engine: EngineName;
  /** postgres://… or redis://… */
  readonly url: string;
  readonly queue: string;
}

/** A short lease for the redelivery run: how long a taken task is held, how often expiry is checked. */
export interface Lease {
  readonly leaseSeconds: number;
  readonly checkSeconds: number;
}

export interface TaskData {
  readonly i: number;
  readonly sleepMs: number;
}

export interface Producer {
  enqueue(tasks: readonly TaskData[]): Promise<void>;
  close(): Promise<void>;
}

export interface Consumer {
  /** Starts taking tasks, at most `concurrency` at a time. */
  run(concurrency: number, handler: (task: TaskData) => Promise<void>): void;
  /** Stops taking tasks and waits for those in flight. */
  close(): Promise<void>;
}

const counts = { pg: 0, redis: 0 };
let countersInstalled = false;

/** Counts every query sent by any pg client and every command sent by any ioredis client of this process. */
export function installRoundTripCounters(): void {
  if (countersInstalled) return;
  countersInstalled = true;
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    counts.pg += 1;
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;
  const sendCommand = Redis.prototype.sendCommand;
  Redis.prototype.sendCommand = function (this: Redis, ...args: Parameters<typeof sendCommand>) {
    counts.redis += 1;
    return sendCommand.apply(this, args);
  };
}

/** Queries (pg) or commands (Redis, pipelined ones counted one by one) sent so far by this process. */
export function roundTripsSent(): number {
  return counts.pg + counts.redis;
}

function redisConnection(url: string): { host: string; port: number } {
  const parsed = new URL(url);
  return { host: parsed.hostname, port: Number(parsed.port) };
}

function bossOptions(url: string, lease: Lease | undefined, migrate: boolean): PgBoss.ConstructorOptions {
  return {
    connectionString: url,
    schedule: false,
    migrate,
    supervise: lease !== undefined,
    ...(lease === undefined ? {} : { maintenanceIntervalSeconds: lease.checkSeconds }),
  };
}

async function pgBossProducer(target: EngineTarget, lease: Lease | undefined): Promise<Producer> {
  const boss = new PgBoss(bossOptions(target.url, undefined, true));
  boss.on("error", (error) => console.error(`pg-boss producer: ${error.message}`));
  await boss.start();
  await boss.createQueue(target.queue, {
    name: target.queue,
    ...(lease === undefined ? {} : { expireInSeconds: lease.leaseSeconds, retryLimit: 3, retryDelay: 0 }),
  });
  return {
    async enqueue(tasks) {
      await boss.insert(tasks.map((data) => ({ name: target.queue, data })));
    },
    close: () => boss.stop({ graceful: false, wait: true }),
  };
}

/** BullMQ's queue classes, on Redis or on the PostgreSQL backend (untyped data: the generics do not mix). */
function bullQueue(target: EngineTarget) {
  return target.engine === "bullmq-pg"
    ? new Queue(
        target.queue,
        { connection: { connectionString: target.url, migrate: true } },
        createPostgresBackend,
      )
    : new Queue(target.queue, { connection: redisConnection(target.url) });
}

async function bullProducer(target: EngineTarget): Promise<Producer> {
  const queue = bullQueue(target);
  try {
    await queue.waitUntilReady();
  } catch (error) {
    await queue.close().catch(() => {});
    throw error;
  }
  return {
    async enqueue(tasks) {
      for (let start = 0; start < tasks.length; start += 500) {
        await queue.addBulk(tasks.slice(start, start + 500).map((data) => ({ name: "task", data })));
      }
    },
    close: () => queue.close(),
  };
}

/** Creates the queue (with the short lease, if given) and returns a producer for it. */
export function openProducer(target: EngineTarget, lease?: Lease): Promise<Producer> {
  return target.engine.startsWith("pg-boss") ? pgBossProducer(target, lease) : bullProducer(target);
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function pgBossConsumer(target: EngineTarget, lease: Lease | undefined): Promise<Consumer> {
  const boss = new PgBoss(bossOptions(target.url, lease, false));
  boss.on("error", (error) => console.error(`pg-boss consumer: ${error.message}`));
  await boss.start();
  let stopping = false;
  const loops: Promise<void>[] = [];
  const slot = async (handler: (task: TaskData) => Promise<void>) => {
    while (!stopping) {
      const [job] = await boss.fetch<TaskData>(target.queue);
      if (job === undefined) {
        await sleep(500);
        continue;
      }
      await handler(job.data);
      await boss.complete(target.queue, job.id);
    }
  };
  return {
    run(concurrency, handler) {
      if (target.engine === "pg-boss-work") {
        const options = { batchSize: concurrency, pollingIntervalSeconds: 0.5 };
        void boss.work<TaskData>(target.queue, options, async (jobs) => {
          await Promise.all(jobs.map((job) => handler(job.data)));
        });
        return;
      }
      for (let i = 0; i < concurrency; i++) loops.push(slot(handler));
    },
    async close() {
      stopping = true;
      await Promise.all(loops);
      await boss.stop({ graceful: true, wait: true, timeout: 10_000 });
    },
  };
}

async function bullConsumer(target: EngineTarget, lease: Lease | undefined): Promise<Consumer> {
  let handle: (task: TaskData) => Promise<void> = async () => {};
  const leaseOptions =
    lease === undefined
      ? {}
      : {
          lockDuration: lease.leaseSeconds * 1000,
          stalledInterval: lease.checkSeconds * 1000,
          maxStalledCount: 3,
        };
  const options = { autorun: false, concurrency: 1, ...leaseOptions };
  const processor = async (job: { data: TaskData }) => handle(job.data);
  const worker =
    target.engine === "bullmq-pg"
      ? new Worker(target.queue, processor, { ...options, connection: target.url }, createPostgresBackend)
      : new Worker(target.queue, processor, { ...options, connection: redisConnection(target.url) });
  worker.on("error", (error: Error) => console.error(`BullMQ worker: ${error.message}`));
  await worker.waitUntilReady();
  return {
    run(concurrency, handler) {
      handle = handler;
      worker.concurrency = concurrency;
      void worker.run();
    },
    close: () => worker.close(),
  };
}

/** Connects a consumer (ready to `run`). */
export function openConsumer(target: EngineTarget, lease?: Lease): Promise<Consumer> {
  return target.engine.startsWith("pg-boss") ? pgBossConsumer(target, lease) : bullConsumer(target, lease);
}
