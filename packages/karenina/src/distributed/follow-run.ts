import type { ProgressEvent, RunSummary } from "../pipeline/index.js";
import { rowOutcome, type VerificationResult } from "../results/index.js";
import type { Storage } from "../storage/index.js";
import { FleetRunNotFoundError } from "./errors.js";
import type { Fleet } from "./fleet.js";
import { type FleetProgress, NO_CALLS } from "./fleet-runs.js";
import { FleetQueue } from "./task-queue.js";

/** Options of {@link followFleetRun}. */
export interface FollowFleetRunOptions {
  /** Between two looks at the database. Default 500 ms. */
  pollMs?: number;
  /** Between two checks that the queue still holds the run's unfinished work. Default 10 s. */
  lostCheckMs?: number;
  /** Stops following (the run goes on). */
  signal?: AbortSignal;
  /** The same events as a local run's (`start`, one `result` per stored result, `end`). */
  onProgress?: (event: ProgressEvent) => void;
  /** When following began, for `summary.seconds` (epoch ms). Default now. */
  startedAt?: number;
}

/** How following ended. */
export interface FollowedRun {
  summary: RunSummary;
  progress: FleetProgress;
  /** Following stopped (signal) before the run ended. */
  detached: boolean;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });

/** Counts stored results as a local run's progress does. */
class Tally {
  done = 0;
  passed = 0;
  failed = 0;
  verified = 0;

  add(result: VerificationResult): void {
    this.done++;
    const outcome = rowOutcome(result);
    if (outcome === "passed") this.passed++;
    if (outcome === "failed") this.failed++;
    if (result.template?.template_verification_performed === true) this.verified++;
  }
}

/**
 * Follows a distributed run from the database until it completes or is cancelled: each result the workers
 * store is reported as a local run reports it, with the fleet's call counters. When the queue no longer holds
 * work for groups still unfinished (the queue gave them up after repeated worker deaths), they are ended with
 * an error, so following ends and the run can be resumed.
 * @throws {FleetRunNotFoundError} for an unknown run.
 */
export async function followFleetRun(
  fleet: Fleet,
  storage: Storage,
  runId: string,
  options: FollowFleetRunOptions = {},
): Promise<FollowedRun> {
  const startedAt = options.startedAt ?? Date.now();
  const pollMs = options.pollMs ?? 500;
  const lostCheckMs = options.lostCheckMs ?? 10_000;
  let progress = await fleet.runs.progress(runId);
  if (progress === null) throw new FleetRunNotFoundError(runId, fleet.database);
  const tally = new Tally();
  let after = 0;
  const readNew = async () => {
    for (;;) {
      const page = await storage.loadResultDigestPage({ runId, limit: 1_000 }, after);
      for (const result of page.digests) {
        tally.add(result);
        options.onProgress?.({
          type: "result",
          result,
          done: tally.done,
          total: progress?.tasksTotal ?? tally.done,
          passed: tally.passed,
          failed: tally.failed,
          verified: tally.verified,
          stats: progress?.stats ?? NO_CALLS,
        });
      }
      after = page.last ?? after;
      if (page.after === null) return;
    }
  };
  const resumed = await storage.countResults({ runId });
  options.onProgress?.({ type: "start", total: progress.tasksTotal, resumed, runName: runId });
  const lost = new LostWorkCheck(fleet, progress.queue, lostCheckMs);
  let detached = false;
  try {
    for (;;) {
      progress = (await fleet.runs.progress(runId)) ?? progress;
      await readNew();
      if (progress.status !== "running") break;
      if (options.signal?.aborted) {
        detached = true;
        break;
      }
      if (await lost.lost(progress)) {
        await fleet.runs.abandonUnfinished(
          runId,
          "the queue gave this group up (its workers died repeatedly); resume the run to try again",
        );
        continue;
      }
      await sleep(pollMs, options.signal);
    }
  } finally {
    await lost.close();
  }
  // Rows of concurrent savers can commit out of id order, so the live count may have missed one: the summary
  // counts every stored result once more.
  const final = new Tally();
  for await (const page of storage.readResultDigests({ runId })) for (const result of page) final.add(result);
  Object.assign(tally, final);
  const summary: RunSummary = {
    ...progress.stats,
    runName: runId,
    total: progress.tasksTotal,
    completed: tally.done - Math.min(resumed, tally.done),
    resumed: Math.min(resumed, tally.done),
    passed: tally.passed,
    failed: tally.failed,
    verified: tally.verified,
    taskErrors: progress.groupErrors,
    aborted: progress.status === "cancelled" || detached,
    seconds: (Date.now() - startedAt) / 1000,
  };
  options.onProgress?.({ type: "end", summary });
  return { summary, progress, detached };
}

/**
 * Whether a run's unfinished groups have no job left in the queue: seen twice in a row, `intervalMs` apart
 * (a group is ended before its job leaves the queue, so an empty queue with unfinished groups means lost jobs).
 */
class LostWorkCheck {
  #queue: FleetQueue | null = null;
  #lastCheck = Date.now();
  #emptySeen = 0;

  constructor(
    private readonly fleet: Fleet,
    private readonly queueName: string,
    private readonly intervalMs: number,
  ) {}

  async lost(progress: FleetProgress): Promise<boolean> {
    if (Date.now() - this.#lastCheck < this.intervalMs) return false;
    this.#lastCheck = Date.now();
    if (progress.groupsDone >= progress.groupsTotal) return false;
    this.#queue ??= await FleetQueue.open(this.fleet.url, this.queueName);
    const pending = await this.#queue.pendingJobs();
    this.#emptySeen = pending === 0 ? this.#emptySeen + 1 : 0;
    return this.#emptySeen >= 2;
  }

  async close(): Promise<void> {
    await this.#queue?.close();
  }
}
