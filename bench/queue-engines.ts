/**
 * Queue engines for distributed runs (issue 18): what the queue itself costs, measured on pg-boss 10 and
 * BullMQ 6 (on Redis and on its PostgreSQL backend) before choosing one.
 *
 *   npm run bench:queue
 *   npm run bench:queue -- --tasks 2000 --latency-tasks 240 --workers 1,2,4 --concurrency 4
 *   npm run bench:queue -- --engines pg-boss,bullmq-redis --skip-lease
 *
 * Starts a throwaway PostgreSQL cluster and, when `redis-server` is installed, a throwaway Redis (else BullMQ
 * on Redis is reported as not measured, with the reason). For each engine, with consumers as child processes:
 * (a) overhead: enqueues `--tasks` no-op tasks in bulk, then 1/2/4 consumers (`--concurrency` tasks in flight
 *     each) fetch and complete them: tasks/s, consumer CPU ms per task (process.cpuUsage, from the start signal
 *     to the end of a graceful stop), server CPU ms per task (/proc/<pid>/stat of the postmaster and its
 *     backends, or of redis-server), client round trips per task (pg queries or Redis commands counted by
 *     wrapping the drivers; pipelined Redis commands count one each) and, on Redis, commands the server ran
 *     (INFO commandstats, Lua scripts' inner calls included); and the producer's CPU and round trips;
 * (b) latency-bound: `--latency-tasks` tasks that each sleep `--latency-ms`, 1/2/4 consumers × concurrency:
 *     tasks/s, speed-up over one consumer, and efficiency (tasks/s over the ideal workers × concurrency / L);
 * (c) lease/redelivery: two consumers (concurrency 2) on 12 tasks of 2 s with a 5 s lease checked every 1 s;
 *     the first is SIGKILLed 0.5 s after it starts a task; prints the time from the kill until each task it
 *     held is started again by the other, and the duplicates (tasks completed more than once) observed.
 * Prints figures and ratios only; nothing is asserted. The machine is shared (2 cores): consumers, the
 * server and the producer compete for them, so absolute rates are a floor.
 */
import { type ChildProcess, fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { Redis } from "ioredis";
import {
  type EngineName,
  type EngineTarget,
  installRoundTripCounters,
  type Lease,
  openProducer,
  roundTripsSent,
  type TaskData,
} from "./queue-engines-adapters.js";
import type { FromConsumer, ToConsumer } from "./queue-engines-consumer.js";
import { startPostgres, startRedis, type ThrowawayServer } from "./queue-engines-servers.js";

const CONSUMER = fileURLToPath(new URL("./queue-engines-consumer.ts", import.meta.url));
const LEASE: Lease = { leaseSeconds: 5, checkSeconds: 1 };

const { values } = parseArgs({
  options: {
    tasks: { type: "string", default: "2000" },
    "latency-tasks": { type: "string", default: "240" },
    "latency-ms": { type: "string", default: "200" },
    workers: { type: "string", default: "1,2,4" },
    concurrency: { type: "string", default: "4" },
    engines: { type: "string", default: "pg-boss,pg-boss-work,bullmq-redis,bullmq-pg" },
    "skip-lease": { type: "boolean", default: false },
  },
});
const TASKS = Number(values.tasks);
const LATENCY_TASKS = Number(values["latency-tasks"]);
const LATENCY_MS = Number(values["latency-ms"]);
const WORKERS = values.workers.split(",").map(Number);
const CONCURRENCY = Number(values.concurrency);
const ENGINES = values.engines.split(",") as EngineName[];

const LABELS: Record<EngineName, string> = {
  "pg-boss": "pg-boss 10.4.2, own fetch loop (PostgreSQL)",
  "pg-boss-work": "pg-boss 10.4.2, work() loop (PostgreSQL)",
  "bullmq-redis": "BullMQ 6.7.0 (Redis)",
  "bullmq-pg": "BullMQ 6.7.0 (PostgreSQL backend)",
};

/** A forked consumer and what it said. */
interface ConsumerProcess {
  readonly child: ChildProcess;
  completed: number;
  report?: Extract<FromConsumer, { type: "report" }>;
}

let queueNumber = 0;
const nextQueue = () => `bench_${process.pid}_${++queueNumber}`;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const fmt = (n: number, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : "—");

function waitFor(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const started = Date.now();
    const tick = () => {
      if (condition()) resolve(true);
      else if (Date.now() - started > timeoutMs) resolve(false);
      else setTimeout(tick, 20);
    };
    tick();
  });
}

function forkConsumer(onMessage: (message: FromConsumer) => void): ConsumerProcess {
  const child = fork(CONSUMER, [], {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const consumer: ConsumerProcess = { child, completed: 0 };
  child.on("message", (message: FromConsumer) => {
    if (message.type === "progress") consumer.completed = message.completed;
    if (message.type === "report") consumer.report = message;
    onMessage(message);
  });
  return consumer;
}

async function startConsumers(
  count: number,
  init: Extract<ToConsumer, { type: "init" }>,
  onMessage: (from: ConsumerProcess, message: FromConsumer) => void = () => {},
): Promise<ConsumerProcess[]> {
  let ready = 0;
  const consumers: ConsumerProcess[] = [];
  for (let n = 0; n < count; n++) {
    const consumer: ConsumerProcess = forkConsumer((message) => {
      if (message.type === "ready") ready += 1;
      onMessage(consumer, message);
    });
    consumers.push(consumer);
    consumer.child.send(init satisfies ToConsumer);
  }
  if (!(await waitFor(() => ready === count, 60_000)))
    throw new Error("consumers did not connect within 60 s");
  return consumers;
}

async function finishConsumers(consumers: readonly ConsumerProcess[]): Promise<void> {
  for (const consumer of consumers) if (consumer.child.connected) consumer.child.send({ type: "finish" });
  const alive = consumers.filter((c) => c.child.exitCode === null && c.child.signalCode === null);
  await waitFor(() => alive.every((c) => c.report !== undefined), 30_000);
  for (const consumer of consumers) if (consumer.child.exitCode === null) consumer.child.kill("SIGKILL");
}

/** Commands the Redis server has run (all kinds but INFO), or null for PostgreSQL. */
async function serverCommands(admin: Redis | null): Promise<number | null> {
  if (admin === null) return null;
  const text = await admin.info("commandstats");
  let calls = 0;
  for (const match of text.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) {
    if (match[1] !== "info") calls += Number(match[2]);
  }
  return calls;
}

interface BatchResult {
  readonly seconds: number;
  readonly consumerCpuMs: number;
  readonly serverCpuMs: number;
  readonly consumerRoundTrips: number;
  readonly serverCommands: number | null;
  readonly enqueueCpuMs: number;
  readonly enqueueRoundTrips: number;
  readonly enqueueSeconds: number;
  readonly completed: number;
}

/** Enqueues `tasks`, then lets `workers` consumer processes take them all; measures from the start signal. */
async function runBatch(
  engine: EngineName,
  server: ThrowawayServer,
  workers: number,
  tasks: readonly TaskData[],
): Promise<BatchResult> {
  const target: EngineTarget = { engine, url: server.url, queue: nextQueue() };
  const admin = server.url.startsWith("redis") ? new Redis(server.url) : null;
  const producer = await openProducer(target);
  const consumers = await startConsumers(workers, {
    type: "init",
    target,
    concurrency: CONCURRENCY,
    reportEach: false,
  });
  try {
    const cpuBefore = process.cpuUsage();
    const tripsBefore = roundTripsSent();
    const enqueueStart = performance.now();
    await producer.enqueue(tasks);
    const enqueueSeconds = (performance.now() - enqueueStart) / 1000;
    const enqueueCpu = process.cpuUsage(cpuBefore);
    const enqueueRoundTrips = roundTripsSent() - tripsBefore;
    const commandsBefore = await serverCommands(admin);
    const serverCpuBefore = server.cpuMs();
    const started = performance.now();
    for (const consumer of consumers) consumer.child.send({ type: "go" } satisfies ToConsumer);
    const done = () => consumers.reduce((sum, c) => sum + c.completed, 0) >= tasks.length;
    if (!(await waitFor(done, 600_000))) console.error(`  ${engine}: not all tasks completed within 600 s`);
    const seconds = (performance.now() - started) / 1000;
    await finishConsumers(consumers);
    const serverCpuMs = server.cpuMs() - serverCpuBefore;
    const commandsAfter = await serverCommands(admin);
    const reports = consumers.map((c) => c.report);
    return {
      seconds,
      consumerCpuMs: reports.reduce((sum, r) => sum + (r?.cpuMs ?? Number.NaN), 0),
      serverCpuMs,
      consumerRoundTrips: reports.reduce((sum, r) => sum + (r?.roundTrips ?? Number.NaN), 0),
      serverCommands:
        commandsBefore === null || commandsAfter === null ? null : commandsAfter - commandsBefore,
      enqueueCpuMs: (enqueueCpu.user + enqueueCpu.system) / 1000,
      enqueueRoundTrips,
      enqueueSeconds,
      completed: reports.reduce((sum, r) => sum + (r?.completed ?? 0), 0),
    };
  } finally {
    await finishConsumers(consumers);
    await producer.close();
    admin?.disconnect();
  }
}

const tasksOf = (count: number, sleepMs: number): TaskData[] =>
  Array.from({ length: count }, (_, i) => ({ i, sleepMs }));

async function measureOverhead(engine: EngineName, server: ThrowawayServer): Promise<void> {
  console.log(
    `\n(a) overhead, ${TASKS} no-op tasks, concurrency ${CONCURRENCY} per consumer — ${LABELS[engine]}`,
  );
  console.log(
    "  consumers | tasks/s | consumer CPU ms/task | server CPU ms/task | round trips/task (client) | server cmds/task | enqueue: ms CPU/task, trips/task, tasks/s",
  );
  for (const workers of WORKERS) {
    const r = await runBatch(engine, server, workers, tasksOf(TASKS, 0));
    const per = (n: number | null) => (n === null ? "—" : fmt(n / TASKS, 3));
    console.log(
      `  ${workers} | ${fmt(TASKS / r.seconds, 0)} | ${per(r.consumerCpuMs)} | ${per(r.serverCpuMs)} | ${per(r.consumerRoundTrips)} | ${per(r.serverCommands)} | ${per(r.enqueueCpuMs)}, ${per(r.enqueueRoundTrips)}, ${fmt(TASKS / r.enqueueSeconds, 0)}` +
        (r.completed === TASKS ? "" : `  (completed ${r.completed} of ${TASKS})`),
    );
  }
}

async function measureLatencyBound(engine: EngineName, server: ThrowawayServer): Promise<void> {
  console.log(
    `\n(b) latency-bound, ${LATENCY_TASKS} tasks × ${LATENCY_MS} ms, concurrency ${CONCURRENCY} per consumer — ${LABELS[engine]}`,
  );
  console.log("  consumers | tasks/s | speed-up vs 1 | efficiency vs ideal (consumers × concurrency / L)");
  let single = Number.NaN;
  for (const workers of WORKERS) {
    const r = await runBatch(engine, server, workers, tasksOf(LATENCY_TASKS, LATENCY_MS));
    const rate = LATENCY_TASKS / r.seconds;
    if (workers === 1) single = rate;
    const ideal = (workers * CONCURRENCY * 1000) / LATENCY_MS;
    console.log(`  ${workers} | ${fmt(rate, 1)} | ${fmt(rate / single)}× | ${fmt(rate / ideal)}`);
  }
}

/** (c): kills one of two consumers mid-task and watches its tasks come back. */
async function measureRedelivery(engine: EngineName, server: ThrowawayServer): Promise<void> {
  const target: EngineTarget = { engine, url: server.url, queue: nextQueue() };
  const taskCount = 12;
  const producer = await openProducer(target, LEASE);
  const starts = new Map<number, { consumer: ConsumerProcess; at: number }[]>();
  const completions = new Map<number, number>();
  const consumers = await startConsumers(
    2,
    { type: "init", target, lease: LEASE, concurrency: 2, reportEach: true },
    (from, message) => {
      if (message.type === "started")
        starts.set(message.i, [...(starts.get(message.i) ?? []), { consumer: from, at: Date.now() }]);
      if (message.type === "completed") completions.set(message.i, (completions.get(message.i) ?? 0) + 1);
    },
  );
  const [victim, survivor] = consumers as [ConsumerProcess, ConsumerProcess];
  try {
    await producer.enqueue(tasksOf(taskCount, 2000));
    for (const consumer of consumers) consumer.child.send({ type: "go" } satisfies ToConsumer);
    const startedBy = (c: ConsumerProcess) =>
      [...starts.entries()].filter(([, s]) => s.some((x) => x.consumer === c));
    await waitFor(() => startedBy(victim).length > 0, 30_000);
    await sleep(500);
    victim.child.kill("SIGKILL");
    const killedAt = Date.now();
    const held = startedBy(victim)
      .map(([i]) => i)
      .filter((i) => !completions.has(i) || (starts.get(i) ?? []).length > (completions.get(i) ?? 0));
    const allDone = () => [...Array(taskCount).keys()].every((i) => completions.has(i));
    const finished = await waitFor(allDone, 120_000);
    await sleep(2000);
    const retaken = held.map((i) => {
      const again = (starts.get(i) ?? []).find((s) => s.consumer === survivor && s.at >= killedAt);
      return again === undefined ? Number.NaN : (again.at - killedAt) / 1000;
    });
    const totalCompletions = [...completions.values()].reduce((a, b) => a + b, 0);
    console.log(`\n(c) lease/redelivery — ${LABELS[engine]}`);
    console.log(
      `  lease ${LEASE.leaseSeconds} s, expiry checked every ${LEASE.checkSeconds} s; ${taskCount} tasks × 2 s`,
    );
    console.log(
      `  tasks held by the killed consumer: ${held.length}; taken again after (s): ${retaken.map((s) => fmt(s, 1)).join(", ") || "—"}`,
    );
    console.log(
      `  all ${taskCount} completed: ${finished ? "yes" : "no"} (${completions.size} distinct); completions ${totalCompletions}; duplicates ${totalCompletions - completions.size}`,
    );
  } finally {
    await finishConsumers([survivor]);
    if (victim.child.exitCode === null && victim.child.signalCode === null) victim.child.kill("SIGKILL");
    await producer.close();
  }
}

async function measureEngine(engine: EngineName, server: ThrowawayServer): Promise<void> {
  try {
    if (engine !== "pg-boss-work") await measureOverhead(engine, server);
    else
      console.log(
        `\n(a) overhead — ${LABELS[engine]}: not measured (its loop waits 0.5 s after every batch of ${CONCURRENCY}: ${TASKS} tasks would take ${fmt((TASKS / CONCURRENCY) * 0.5, 0)} s; the per-task costs are those of the fetch loop)`,
      );
    await measureLatencyBound(engine, server);
    if (!values["skip-lease"] && engine !== "pg-boss-work") await measureRedelivery(engine, server);
  } catch (error) {
    console.log(`\n${LABELS[engine]}: failed: ${(error as Error).stack ?? error}`);
  }
}

async function main(): Promise<void> {
  installRoundTripCounters();
  console.log(`queue engines, Node ${process.version}; consumers are child processes (tsx)`);
  const postgres = await startPostgres();
  const redis = await startRedis();
  try {
    for (const engine of ENGINES) {
      if (engine === "bullmq-redis") {
        if ("unavailable" in redis) console.log(`\n${LABELS[engine]}: not measured — ${redis.unavailable}`);
        else await measureEngine(engine, redis);
      } else await measureEngine(engine, postgres);
    }
  } finally {
    if (!("unavailable" in redis)) await redis.stop();
    await postgres.stop();
  }
}

await main();
