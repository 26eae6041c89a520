import { existsSync } from "node:fs";
import { hostname } from "node:os";
import { confinedPath } from "../agentic/index.js";
import { CallScheduler, type ResponseStore } from "../llm/index.js";
import {
  answerGroupTasks,
  CachingPortProvider,
  createRunServices,
  describeException,
  type RunStatsSnapshot,
  resultTaskKey,
  runBatch,
  type VerificationTask,
} from "../pipeline/index.js";
import type { VerificationResult } from "../results/index.js";
import { openStorage, type Storage } from "../storage/index.js";
import { FleetWorkspaceMissingError } from "./errors.js";
import { type Fleet, openFleet } from "./fleet.js";
import { type FleetJob, type FleetRun, NO_CALLS } from "./fleet-runs.js";
import { PostgresCallLimits } from "./postgres-call-limits.js";
import { PostgresResponseCache } from "./postgres-response-cache.js";
import { ResultBatcher } from "./result-batcher.js";
import { type FleetRunInputs, fleetRunInputs } from "./run-inputs.js";
import {
  DEFAULT_LEASE,
  DEFAULT_QUEUE,
  type JobDelivery,
  QueueConsumer,
  type QueueLease,
} from "./task-queue.js";

/** What a worker reports as it goes (the CLI prints it). */
export type WorkerEvent =
  | { type: "ready"; worker: string; queue: string; concurrency: number }
  | { type: "group-start"; job: FleetJob; tasks: number }
  | { type: "group-skip"; job: FleetJob; reason: string }
  | { type: "group-end"; job: FleetJob; results: number; error: string | null; seconds: number }
  | { type: "run-cancelled"; runId: string }
  | { type: "run-completed"; runId: string }
  | { type: "error"; message: string };

/** Options of {@link runFleetWorker}. */
export interface FleetWorkerOptions {
  /** The fleet's PostgreSQL database (queue, bookkeeping, results). */
  url: string;
  queue?: string;
  /** Answer groups in hand at once. Default 4. */
  concurrency?: number;
  lease?: QueueLease;
  /** How this worker is named in the database and in errors. Default `host:pid`. */
  name?: string;
  /** This machine's copy (or mount) of the runs' workspace root, when it is not at the planner's path. */
  workspaceRoot?: string | null;
  /** Where API keys are read. Default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Stops the worker: it takes no new job and waits for the jobs in hand. */
  signal?: AbortSignal;
  onEvent?: (event: WorkerEvent) => void;
}

/** A run as this worker holds it: rebuilt once, shared by its jobs here. */
interface WorkerRun {
  run: FleetRun;
  inputs: FleetRunInputs;
  scheduler: CallScheduler;
  limits: PostgresCallLimits;
  cache: ResponseStore | null;
  ports: CachingPortProvider;
  cancelled: AbortController;
  active: number;
}

const STATUS_POLL_MS = 1_000;

/** How a delivery of a group ended: results saved, why the others are missing, the calls it made. */
interface GroupOutcome {
  results: number;
  error: string | null;
  stats: RunStatsSnapshot;
}

/** A delivery of a group being handled: when it started, which delivery it is, and whether it is the first. */
interface GroupDelivery {
  startedAt: Date;
  attempt: number;
  /** No earlier delivery can have stored a result of the group: nothing is looked up before its tasks run. */
  first: boolean;
}

/**
 * A fleet worker: takes answer groups from the queue, runs their tasks (the answer generated once, then each
 * judge), saves each result as it finishes, and ends the group in the fleet's bookkeeping. Runs until
 * `options.signal` aborts, then finishes the groups in hand.
 */
export async function runFleetWorker(options: FleetWorkerOptions): Promise<void> {
  const worker = new FleetWorker(options);
  await worker.run();
}

class FleetWorker {
  readonly #options: FleetWorkerOptions;
  readonly #name: string;
  readonly #env: NodeJS.ProcessEnv;
  readonly #runs = new Map<string, Promise<WorkerRun>>();
  #fleet: Fleet | null = null;
  #storage: Storage | null = null;
  #results: ResultBatcher | null = null;

  constructor(options: FleetWorkerOptions) {
    this.#options = options;
    this.#name = options.name ?? `${hostname()}:${process.pid}`;
    this.#env = options.env ?? process.env;
  }

  #emit(event: WorkerEvent): void {
    this.#options.onEvent?.(event);
  }

  async run(): Promise<void> {
    const { url } = this.#options;
    const queue = this.#options.queue ?? DEFAULT_QUEUE;
    const concurrency = this.#options.concurrency ?? 4;
    this.#fleet = await openFleet(url, { poolSize: concurrency + 4 });
    this.#storage = await openStorage(url);
    this.#results = new ResultBatcher(this.#storage);
    const poller = setInterval(() => void this.#pollStatuses(), STATUS_POLL_MS);
    let consumer: QueueConsumer | null = null;
    try {
      consumer = await QueueConsumer.start(url, queue, {
        concurrency,
        lease: this.#options.lease ?? DEFAULT_LEASE,
        handle: (job, delivery) => this.#handle(job, delivery),
        onError: (error) => this.#emit({ type: "error", message: error.message }),
      });
      this.#emit({ type: "ready", worker: this.#name, queue, concurrency });
      await stopped(this.#options.signal);
    } finally {
      clearInterval(poller);
      await consumer?.close();
      for (const run of this.#runs.values()) await closeRun(await run.catch(() => null));
      this.#runs.clear();
      await this.#storage.close();
      await this.#fleet.close();
    }
  }

  /** Aborts the tasks in hand of runs cancelled since the last look, and forgets them. */
  async #pollStatuses(): Promise<void> {
    const fleet = this.#fleet;
    if (fleet === null || this.#runs.size === 0) return;
    try {
      const statuses = await fleet.runs.statuses([...this.#runs.keys()]);
      for (const [runId, held] of this.#runs) {
        const status = statuses.get(runId);
        if (status === "running") continue;
        this.#runs.delete(runId);
        const run = await held.catch(() => null);
        if (status === "cancelled" || status === undefined) {
          run?.cancelled.abort(new Error(`run ${runId} was cancelled`));
          this.#emit({ type: "run-cancelled", runId });
        }
        if (run !== null) void waitIdle(run).then(() => closeRun(run));
      }
    } catch (error) {
      this.#emit({ type: "error", message: `checking run statuses: ${describeException(error)}` });
    }
  }

  #runOf(runId: string): Promise<WorkerRun> {
    let held = this.#runs.get(runId);
    if (held === undefined) {
      held = this.#loadRun(runId);
      this.#runs.set(runId, held);
      held.catch(() => this.#runs.delete(runId));
    }
    return held;
  }

  async #loadRun(runId: string): Promise<WorkerRun> {
    const fleet = this.#fleet as Fleet;
    const run = await fleet.runs.get(runId);
    if (run === null) throw new Error(`run ${runId} is not in ${fleet.database}`);
    const inputs = await fleetRunInputs(run, {
      env: this.#env,
      ...(this.#options.workspaceRoot == null ? {} : { workspaceRoot: this.#options.workspaceRoot }),
    });
    const { config } = inputs;
    const globalLimit = config.max_concurrent_requests ?? 16;
    const limits = new PostgresCallLimits({
      pool: fleet.pool,
      scope: runId,
      holder: this.#name,
      globalLimit,
      endpointLimits: run.settings.endpointLimits,
      // A dead worker's permits come back as soon as its jobs do.
      leaseSeconds: (this.#options.lease ?? DEFAULT_LEASE).leaseSeconds,
    });
    return {
      run,
      inputs,
      limits,
      scheduler: new CallScheduler({
        globalLimit,
        endpointLimits: run.settings.endpointLimits,
        shared: limits,
      }),
      cache: run.settings.sharedCache ? new PostgresResponseCache(fleet.pool) : null,
      ports: new CachingPortProvider({ env: this.#env }),
      cancelled: new AbortController(),
      active: 0,
    };
  }

  async #handle(job: FleetJob, { attempt }: JobDelivery): Promise<void> {
    const delivery: GroupDelivery = {
      startedAt: new Date(),
      attempt,
      first: attempt <= 1 && job.resumed !== true,
    };
    // A first delivery (the common case) starts at once; a later one asks whether an earlier one finished it.
    if (!delivery.first) {
      const claim = await (this.#fleet as Fleet).runs.claimGroup(job.runId, job.groupKey, this.#name);
      if (claim === null) return this.#emit({ type: "group-skip", job, reason: "its run is gone" });
      if (claim.finished) return this.#emit({ type: "group-skip", job, reason: "already finished" });
      if (claim.runStatus !== "running")
        return this.#emit({ type: "group-skip", job, reason: `its run is ${claim.runStatus}` });
    }
    let run: WorkerRun;
    try {
      run = await this.#runOf(job.runId);
    } catch (error) {
      // This worker cannot run the run at all (a key missing from its environment, a config it cannot read):
      // the group fails naming the worker, so the cause is seen at once, and a resume retries it.
      const reason = `worker ${this.#name} cannot run ${job.runId}: ${describeException(error)}`;
      return this.#endGroup(job, { results: 0, error: reason, stats: NO_CALLS }, delivery);
    }
    // Held runs are the running ones: the status poll forgets a run within a second of its end.
    if (run.run.status !== "running")
      return this.#emit({ type: "group-skip", job, reason: `its run is ${run.run.status}` });
    run.active++;
    try {
      const outcome = await this.#runGroup(run, job, delivery);
      if (outcome !== "cancelled") await this.#endGroup(job, outcome, delivery);
    } finally {
      run.active--;
    }
  }

  /** Ends a group in the bookkeeping; the run is completed with its last group. */
  async #endGroup(job: FleetJob, outcome: GroupOutcome, delivery: GroupDelivery): Promise<void> {
    const end = await (this.#fleet as Fleet).runs.finishGroup(job.runId, job.groupKey, {
      worker: this.#name,
      error: outcome.error,
      stats: outcome.stats,
      startedAt: delivery.startedAt,
      deliveries: delivery.attempt,
    });
    this.#emit({
      type: "group-end",
      job,
      results: outcome.results,
      error: outcome.error,
      seconds: (Date.now() - delivery.startedAt.getTime()) / 1000,
    });
    if (end.completedRun) await this.#completeRun(job.runId);
  }

  /** Runs a group's tasks that have no stored result yet, saving each result as it finishes. */
  async #runGroup(
    run: WorkerRun,
    job: FleetJob,
    delivery: GroupDelivery,
  ): Promise<"cancelled" | GroupOutcome> {
    const storage = this.#storage as Storage;
    const { inputs } = run;
    const question = inputs.questions.get(job.questionId);
    if (question === undefined)
      return { results: 0, error: `question ${job.questionId} is not in the run`, stats: NO_CALLS };
    const missing = await this.#missingWorkspace(run, question.id, question.workspacePath);
    if (missing !== null) return { results: 0, error: missing.message, stats: NO_CALLS };
    const planned = answerGroupTasks(question, inputs.config, job, {
      globalRubric: inputs.benchmark.getGlobalRubric(),
      runName: run.run.settings.runName,
    });
    // A first delivery has nothing stored; a later one skips the tasks an earlier delivery saved (whatever
    // their timestamps), so no task gets a second result.
    const stored = delivery.first
      ? new Set<string>()
      : new Set(
          (await storage.loadResults({ runId: job.runId, questionIds: [question.id] })).map(resultTaskKey),
        );
    const todo = planned.filter((task) => !stored.has(task.key));
    this.#emit({ type: "group-start", job, tasks: todo.length });
    if (todo.length === 0) return { results: 0, error: null, stats: NO_CALLS };
    const tasks: VerificationTask[] = todo.map((task) => ({
      ...task,
      answerSharers: todo.length,
    }));
    const services = createRunServices(inputs.config, {
      ports: run.ports,
      scheduler: run.scheduler,
      cache: run.cache,
      cacheMode: run.run.settings.cacheMode,
      signal: run.cancelled.signal,
      ...(run.run.settings.prices === null ? {} : { prices: run.run.settings.prices }),
      pythonSandbox: inputs.benchmark.pythonSandbox,
      workspaceRoot: this.#workspaceRoot(run),
      agentCommands: run.run.settings.agentCommands,
      env: this.#env,
    });
    let saved = 0;
    const outcome = await runBatch(tasks, inputs.config, services, {
      onResult: async (result: VerificationResult) => {
        await (this.#results as ResultBatcher).save(job.runId, result);
        saved++;
      },
    });
    if (outcome.aborted) return "cancelled";
    const error =
      outcome.failures.length === 0
        ? null
        : outcome.failures.map((f) => `task ${f.task.key}: ${describeException(f.error)}`).join("; ");
    return { results: saved, error, stats: services.stats.snapshot() };
  }

  #workspaceRoot(run: WorkerRun): string | null {
    return this.#options.workspaceRoot ?? run.run.settings.workspaceRoot;
  }

  /**
   * Why the question's workspace is missing on this worker (the root itself, or the question's directory in
   * it), or null. A path that leaves the root through a symbolic link of the root is not looked at here: the
   * task's workspace stage refuses it with its own error (checkpoints cannot name `..` paths).
   */
  async #missingWorkspace(
    run: WorkerRun,
    questionId: string,
    workspacePath: string | null,
  ): Promise<FleetWorkspaceMissingError | null> {
    const root = this.#workspaceRoot(run);
    if (root === null || workspacePath === null || workspacePath === "") return null;
    if (!existsSync(root)) return new FleetWorkspaceMissingError(root, this.#name, questionId);
    let path: string;
    try {
      path = await confinedPath(root, workspacePath, `question ${questionId}: workspace_path`);
    } catch {
      return null;
    }
    return existsSync(path) ? null : new FleetWorkspaceMissingError(path, this.#name, questionId);
  }

  /** The stored run is marked completed, with the fleet's counters as its summary. */
  async #completeRun(runId: string): Promise<void> {
    const fleet = this.#fleet as Fleet;
    const progress = await fleet.runs.progress(runId);
    if (progress === null) return;
    await (this.#storage as Storage).finishRun(runId, {
      status: "completed",
      summary: { ...progress.stats, tasks: progress.tasksTotal, groupErrors: progress.groupErrors },
      errorMessage: progress.groupErrors > 0 ? `${progress.groupErrors} answer groups failed` : null,
    });
    this.#emit({ type: "run-completed", runId });
  }
}

function stopped(signal: AbortSignal | undefined): Promise<void> {
  if (signal === undefined) return new Promise(() => {});
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
}

async function waitIdle(run: WorkerRun): Promise<void> {
  while (run.active > 0) await new Promise((resolve) => setTimeout(resolve, 100));
}

async function closeRun(run: WorkerRun | null): Promise<void> {
  if (run === null) return;
  await Promise.allSettled([run.ports.close(), run.limits.close(), run.inputs.benchmark.close()]);
}
