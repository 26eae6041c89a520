/**
 * Throughput and overhead of a distributed run (issue 18): `karenina worker` processes on a throwaway
 * PostgreSQL, fed by `karenina verify --distributed`, against a scripted OpenAI-compatible server (in this
 * process) that waits L ms before each reply.
 *
 *   npm run bench:distributed
 *   npm run bench:distributed -- --n 240 --latency 200 --workers 1,2,4 --cpu-n 480 --concurrency 4
 *   npm run bench:distributed -- --only latency --workers 1,4
 *
 * 1. Latency-bound: N questions (default 240: 15 rounds of the largest fleet, so its ceiling is near 4×) × 1 answerer × 1 judge (a VerifiedField template), L = 200 ms,
 *    against 1, 2 and 4 workers, each `--concurrency 4` (C). One answer group = one task = 2 sequential calls,
 *    so the ideal is workers × C / (2 × L) groups/s. The run is timed from its enqueue (the run row's
 *    created_at) to its last group's end (finished_at), both from PostgreSQL's clock. The run's
 *    `--endpoint-limit` and `-c` are max(workers) × C, the most calls the largest fleet can have in flight;
 *    the server's peak of requests in flight is printed against it.
 * 2. CPU-bound: `--cpu-n` questions (default 2 × N) with an original-style Python (pydantic) template, run by
 *    Pyodide in each worker's sandbox process, L = 0, same fleets.
 * 3. Overhead per task, in both runs: CPU of the worker processes (process.cpuUsage() from a preloaded probe,
 *    read just before the enqueue and just after the end; the Python sandbox processes are not in it), pg
 *    queries they sent (the probe wraps pg.Client.prototype.query, which BullMQ's PostgreSQL backend uses
 *    too), and PostgreSQL's CPU (postmaster and backends, from /proc). The same run done locally by
 *    `karenina verify --db postgres://… -c T` (no --distributed) is measured the same way, as a marginal cost:
 *    (run of all N questions − run of the first 8) / (N − 8), which leaves out the process's start and the
 *    checkpoint's load. The same run is also done by as many local processes as workers, side by side, each on
 *    its share of the questions with a worker's concurrency: they share the cores as the fleet's processes do,
 *    so the fleet's cost over them is its own, not its processes' contention.
 *    The fleet's figure is marginal the same way: a run of the first 8 questions, then the
 *    full run, on the same warm workers (each run's own costs, a worker loading it from the database and
 *    starting its sandbox, cancel out); the whole-run figure is printed beside it.
 *    The workers' queries of the first fleet are also broken down statement by statement, per task.
 * Each fleet first runs a warm-up run (2 × workers × C questions, not measured) so that the measured run meets
 * warm processes. The enqueuing `verify --distributed` (start, plan, enqueue, follow) is reported on its own.
 * `--only latency` or `--only CPU` runs one of the two parts. The machine's cores are shared with whatever
 * else runs on it: figures vary from run to run.
 * Targets: 4 workers ≥ 3.5× one at L = 200 ms, the endpoint limit never exceeded; the queue adds ≤ 2 ms CPU
 * per task. Every reply of the server is hand-written benchmark data, not the output of any model.
 */
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { Benchmark } from "../packages/karenina/src/index.js";
import { CLASSIC_TEMPLATE } from "../packages/karenina/src/test-support/classic-template.js";
import {
  type ScriptRule,
  startOpenAiServer,
} from "../packages/karenina/src/test-support/openai-server/index.js";
import { DRUG_TEMPLATE } from "../packages/karenina/src/test-support/pipeline-context.js";
import {
  type Cli,
  chooseCli,
  combine,
  fleetReading,
  NO_READING,
  type ProbeReading,
  runKarenina,
  startWorkers,
  stopWorkers,
} from "./distributed-fleet.js";
import { startPostgres, type ThrowawayServer } from "./queue-engines-servers.js";

const { values } = parseArgs({
  options: {
    n: { type: "string", default: "240" },
    latency: { type: "string", default: "200" },
    workers: { type: "string", default: "1,2,4" },
    concurrency: { type: "string", default: "4" },
    "cpu-n": { type: "string" },
    only: { type: "string" },
  },
});
const N = Number(values.n);
const LATENCY = Number(values.latency);
const WORKER_COUNTS = values.workers.split(",").map(Number);
const CONCURRENCY = Number(values.concurrency);
const CPU_N = Number(values["cpu-n"] ?? 2 * N);
const SMALL = 8;
/** Calls in flight the largest fleet can have: the run's `-c` (fleet-wide limit) and its endpoint limit. */
const LIMIT = Math.max(...WORKER_COUNTS) * CONCURRENCY;

interface Scenario {
  name: string;
  latency: number;
  questions: number;
  /** Checkpoint of `questions` questions, and a smaller one for the warm-up runs. */
  file: string;
  warmUpFile: string;
  replies: (delayMs: number) => ScriptRule[];
}

interface Measured extends RunTiming {
  /** Per task, as the full run's cost minus a small run's (the fleet's per-run costs left out). */
  marginal?: Local;
  peakInFlight: number;
  workers: ProbeReading;
  postgresCpuMs: number;
  enqueuer: ProbeReading;
}

interface Local {
  cpuMsPerTask: number;
  queriesPerTask: number;
  postgresCpuMsPerTask: number;
}

// Hand-written benchmark replies, not output of any model.
const drugReplies = (delayMs: number): ScriptRule[] => [
  { match: { model: "answerer" }, reply: { text: "Venetoclax.", delayMs }, repeat: true },
  { match: { model: "judge" }, reply: { json: { drug: "venetoclax" }, delayMs }, repeat: true },
];
const targetReplies = (delayMs: number): ScriptRule[] => [
  { match: { model: "answerer" }, reply: { text: "Venetoclax inhibits BCL2.", delayMs }, repeat: true },
  { match: { model: "judge" }, reply: { json: { target: "BCL2" }, delayMs }, repeat: true },
];

async function writeCheckpoint(
  file: string,
  name: string,
  questions: number,
  template: string,
): Promise<void> {
  const bench = Benchmark.create({ name });
  for (let i = 0; i < questions; i++)
    bench.addQuestion(`Which drug inhibits BCL2, and which protein does it target? (${i})`, "venetoclax", {
      questionId: `q${i}`,
      answerTemplate: template,
    });
  await bench.save(file);
  await bench.close();
}

function verifyArgs(baseURL: string, file: string, url: string, ...extra: string[]): string[] {
  return [
    "verify",
    file,
    "-a",
    `openai_endpoint:answerer@${baseURL}`,
    "-p",
    `openai_endpoint:judge@${baseURL}`,
    "--db",
    url,
    "-c",
    String(LIMIT),
    "--endpoint-limit",
    `${baseURL}=${LIMIT}`,
    "--no-progress",
    ...extra,
  ];
}

function runIdOf(err: string): string {
  const id = /^(run_[0-9a-f]{8}): \d+ tasks enqueued/m.exec(err)?.[1];
  if (id === undefined) throw new Error(`no run id in:\n${err}`);
  return id;
}

/** A run's timing from PostgreSQL's clock. */
interface RunTiming {
  /** From the run's enqueue (created_at) to its last group's end. */
  seconds: number;
  groups: number;
  /** From the enqueue to the first group taken by a worker. */
  firstTakenSeconds: number;
  /** Mean time of a group from its claim to its end (ideal: 2 × L). */
  meanGroupSeconds: number;
}

async function runTiming(url: string, runId: string): Promise<RunTiming> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query(
      `SELECT EXTRACT(EPOCH FROM max(g.finished_at) - r.created_at)::float8 AS "seconds",
              count(g.finished_at)::int AS "groups",
              EXTRACT(EPOCH FROM min(g.started_at) - r.created_at)::float8 AS "firstTakenSeconds",
              EXTRACT(EPOCH FROM avg(g.finished_at - g.started_at))::float8 AS "meanGroupSeconds"
         FROM karenina_fleet_runs r JOIN karenina_fleet_groups g USING (run_id)
        WHERE r.run_id = $1 GROUP BY r.created_at`,
      [runId],
    );
    return rows[0] as RunTiming;
  } finally {
    await client.end();
  }
}

/** One distributed run of `file` on the workers running now, against a fresh scripted server. */
async function distributedRun(
  cli: Cli,
  probeDir: string,
  postgres: ThrowawayServer,
  scenario: Scenario,
  file: string,
  measure: () => Promise<ProbeReading>,
  extra: readonly string[] = [],
): Promise<Measured> {
  const server = await startOpenAiServer(scenario.replies(scenario.latency));
  try {
    const before = await measure();
    const postgresBefore = postgres.cpuMs();
    const { err, probe } = await runKarenina(cli, probeDir, [
      ...verifyArgs(server.baseURL, file, postgres.url, "--distributed"),
      ...extra,
    ]);
    const after = await measure();
    const postgresCpuMs = postgres.cpuMs() - postgresBefore;
    return {
      ...(await runTiming(postgres.url, runIdOf(err))),
      peakInFlight: server.peakInFlight.all ?? 0,
      workers: combine(after, before, -1),
      postgresCpuMs,
      enqueuer: probe,
    };
  } finally {
    await server.close();
  }
}

async function fleetRun(
  cli: Cli,
  probeDir: string,
  postgres: ThrowawayServer,
  scenario: Scenario,
  workerCount: number,
): Promise<Measured> {
  const workers = await startWorkers(cli, probeDir, postgres.url, workerCount, CONCURRENCY);
  try {
    const measure = () => fleetReading(probeDir, workers);
    await distributedRun(cli, probeDir, postgres, scenario, scenario.warmUpFile, measure);
    // A run's own costs (its checkpoint read and its sandbox started in each worker) come once per run and
    // worker: the per-task cost is the difference between this small run and the full one, as for local runs.
    const small = await distributedRun(cli, probeDir, postgres, scenario, scenario.file, measure, [
      "--questions",
      `0-${SMALL - 1}`,
    ]);
    const full = await distributedRun(cli, probeDir, postgres, scenario, scenario.file, measure);
    const tasks = full.groups - small.groups;
    return {
      ...full,
      marginal: {
        cpuMsPerTask: (full.workers.cpuMs - small.workers.cpuMs) / tasks,
        queriesPerTask: (full.workers.queries - small.workers.queries) / tasks,
        postgresCpuMsPerTask: (full.postgresCpuMs - small.postgresCpuMs) / tasks,
      },
    };
  } finally {
    await stopWorkers(workers);
  }
}

/**
 * The same run done locally by `processes` `verify --db` processes side by side (no --distributed), each on
 * its share of the questions, as a marginal cost per task. One process is what a user runs without a fleet;
 * as many processes as workers, each with a worker's concurrency, share the cores as the fleet does, which
 * tells the fleet's own costs apart from the contention of its processes.
 */
async function localRun(
  cli: Cli,
  probeDir: string,
  postgres: ThrowawayServer,
  scenario: Scenario,
  processes = 1,
): Promise<Local> {
  const server = await startOpenAiServer(scenario.replies(scenario.latency));
  const concurrency = processes === 1 ? [] : ["-c", String(CONCURRENCY)];
  try {
    const once = async (perProcess: number) => {
      const postgresBefore = postgres.cpuMs();
      const runs = await Promise.all(
        Array.from({ length: processes }, (_, i) =>
          runKarenina(cli, probeDir, [
            ...verifyArgs(server.baseURL, scenario.file, postgres.url),
            ...concurrency,
            "--questions",
            `${i * perProcess}-${(i + 1) * perProcess - 1}`,
          ]),
        ),
      );
      const probe = runs.reduce((sum, run) => combine(sum, run.probe, 1), NO_READING);
      return { ...probe, postgresCpuMs: postgres.cpuMs() - postgresBefore };
    };
    const share = Math.floor(scenario.questions / processes);
    const small = await once(SMALL);
    const all = await once(share);
    const tasks = processes * (share - SMALL);
    return {
      cpuMsPerTask: (all.cpuMs - small.cpuMs) / tasks,
      queriesPerTask: (all.queries - small.queries) / tasks,
      postgresCpuMsPerTask: (all.postgresCpuMs - small.postgresCpuMs) / tasks,
    };
  } finally {
    await server.close();
  }
}

const f = (x: number, digits = 2) => x.toFixed(digits);

function printThroughput(scenario: Scenario, runs: Map<number, Measured>): void {
  const first = WORKER_COUNTS[0] as number;
  const one = runs.get(first) as Measured;
  const base = one.groups / one.seconds;
  for (const [workers, m] of runs) {
    const rate = m.groups / m.seconds;
    const parts = [
      `  ${workers} worker${workers === 1 ? " " : "s"}`,
      `${m.groups} tasks in ${f(m.seconds)} s (first taken after ${f(m.firstTakenSeconds)} s, mean group ${f(m.meanGroupSeconds, 3)} s)`,
      `${f(rate, 1)} tasks/s`,
      `speed-up ${f(rate / base)}× over ${first}`,
    ];
    if (scenario.latency > 0) {
      const ideal = (workers * CONCURRENCY) / ((2 * scenario.latency) / 1000);
      parts.push(`ideal ${f(ideal, 1)}/s, efficiency ${f(rate / ideal)}`);
    }
    parts.push(`peak requests in flight ${m.peakInFlight} (limit ${LIMIT})`);
    console.log(parts.join(" · "));
  }
}

function printOverhead(runs: Map<number, Measured>, locals: Map<number, Local>): void {
  const local = locals.get(1) as Local;
  console.log(
    `  local verify (no --distributed), marginal: CPU ${f(local.cpuMsPerTask)} ms/task · ${f(local.queriesPerTask)} pg queries/task · PostgreSQL CPU ${f(local.postgresCpuMsPerTask)} ms/task`,
  );
  for (const [processes, side] of locals) {
    if (processes === 1) continue;
    console.log(
      `  ${processes} local verify processes side by side (1/${processes} of the questions each, -c ${CONCURRENCY}), marginal: CPU ${f(side.cpuMsPerTask)} ms/task · PostgreSQL CPU ${f(side.postgresCpuMsPerTask)} ms/task`,
    );
  }
  for (const [workers, m] of runs) {
    const marginal = m.marginal as Local;
    const cpu = marginal.cpuMsPerTask;
    const pgCpu = marginal.postgresCpuMsPerTask;
    const side = locals.get(workers) as Local;
    const sideBySide = workers === 1 ? "" : `, ${f(cpu - side.cpuMsPerTask)} over ${workers} local processes`;
    console.log(
      [
        `  ${workers} worker${workers === 1 ? " " : "s"}, marginal`,
        `workers CPU ${f(cpu)} ms/task (fleet overhead ${f(cpu - local.cpuMsPerTask)}${sideBySide}; whole run ${f(m.workers.cpuMs / m.groups)})`,
        `${f(marginal.queriesPerTask)} pg queries/task (+${f(marginal.queriesPerTask - local.queriesPerTask)})`,
        `PostgreSQL CPU ${f(pgCpu)} ms/task (+${f(pgCpu - local.postgresCpuMsPerTask)})`,
        `verify --distributed (start, plan, enqueue, follow): CPU ${f(m.enqueuer.cpuMs, 0)} ms, ${m.enqueuer.queries} queries`,
      ].join(" · "),
    );
  }
}

/** The workers' pg queries per task, statement by statement (the first run's), most frequent first. */
function printStatements(workers: number, m: Measured): void {
  console.log(`  workers' pg queries per task by statement (${workers} worker${workers === 1 ? "" : "s"}):`);
  const rows = Object.entries(m.workers.byStatement)
    .map(([statement, n]) => [statement, n / m.groups] as const)
    .filter(([, perTask]) => perTask >= 0.05)
    .sort((a, b) => b[1] - a[1]);
  for (const [statement, perTask] of rows) console.log(`    ${f(perTask).padStart(5)}  ${statement}`);
}

async function runScenario(cli: Cli, probeDir: string, postgres: ThrowawayServer, scenario: Scenario) {
  const runs = new Map<number, Measured>();
  for (const workers of WORKER_COUNTS)
    runs.set(workers, await fleetRun(cli, probeDir, postgres, scenario, workers));
  const locals = new Map<number, Local>();
  for (const processes of new Set([1, ...WORKER_COUNTS]))
    locals.set(processes, await localRun(cli, probeDir, postgres, scenario, processes));
  return { runs, locals };
}

const dir = await mkdtemp(join(tmpdir(), "karenina-bench-distributed-"));
const probeDir = join(dir, "probe");
const postgres = await startPostgres();
try {
  await mkdir(probeDir);
  const cli = chooseCli();
  const warmUp = 2 * Math.max(...WORKER_COUNTS) * CONCURRENCY;
  const scenarios: Scenario[] = [
    {
      name: `latency-bound: ${N} questions × 1 answerer × 1 judge (VerifiedField template), L = ${LATENCY} ms`,
      latency: LATENCY,
      questions: N,
      file: join(dir, "latency.jsonld"),
      warmUpFile: join(dir, "latency-warm.jsonld"),
      replies: drugReplies,
    },
    {
      name: `CPU-bound: ${CPU_N} questions × 1 answerer × 1 judge (original-style Python template, Pyodide), L = 0`,
      latency: 0,
      questions: CPU_N,
      file: join(dir, "cpu.jsonld"),
      warmUpFile: join(dir, "cpu-warm.jsonld"),
      replies: targetReplies,
    },
  ];
  await writeCheckpoint(scenarios[0]?.file as string, "bench-distributed-latency", N, DRUG_TEMPLATE);
  await writeCheckpoint(
    scenarios[0]?.warmUpFile as string,
    "bench-distributed-latency-warm",
    warmUp,
    DRUG_TEMPLATE,
  );
  await writeCheckpoint(scenarios[1]?.file as string, "bench-distributed-cpu", CPU_N, CLASSIC_TEMPLATE);
  await writeCheckpoint(
    scenarios[1]?.warmUpFile as string,
    "bench-distributed-cpu-warm",
    warmUp,
    CLASSIC_TEMPLATE,
  );

  console.log(
    `karenina fleet bench: node ${process.version}, ${cpus().length} cores (shared), throwaway PostgreSQL, ${cli.label}`,
  );
  console.log(
    `workers: ${WORKER_COUNTS.join(", ")}, each --concurrency ${CONCURRENCY}; run -c ${LIMIT} and --endpoint-limit ${LIMIT} (max workers × concurrency); warm-up run of ${warmUp} questions before each measured run`,
  );
  for (const scenario of scenarios) {
    if (values.only !== undefined && !scenario.name.startsWith(values.only)) continue;
    const { runs, locals } = await runScenario(cli, probeDir, postgres, scenario);
    console.log(`\n${scenario.name}`);
    printThroughput(scenario, runs);
    console.log(
      "  overhead per task (workers' own processes; the Python sandbox processes are not counted):",
    );
    printOverhead(runs, locals);
    const [firstCount, firstRun] = [...runs][0] as [number, Measured];
    if (scenario === scenarios[0] || values.only !== undefined) printStatements(firstCount, firstRun);
  }
} finally {
  await postgres.stop();
  await rm(dir, { recursive: true, force: true });
}
