import {
  outcomeValue,
  type RegexDeadlineOptions,
  type RegexJob,
  regexJob,
  startupTimeout,
  startWorker,
} from "./deadline-runner.js";
import { type RegexWorker, STARTUP_TIMEOUT_MS } from "./regex-worker.js";
import type { RegexOperation, RegexResults } from "./regex-worker-source.js";
import type { TranslatedRegex } from "./translate.js";

/**
 * Evaluations awaited at the same time (a server's concurrent requests) each get a worker of their own, up to
 * this many; later ones queue. Each deadline starts when its evaluation reaches a worker, so a queued one is
 * late but never charged for another's backtracking.
 */
const MAX_ASYNC_WORKERS = 4;

const idle: RegexWorker[] = [];
let busy = 0;
const queue: (() => void)[] = [];

/**
 * {@link runRegex} without holding the calling thread: the evaluation runs in a worker of the asynchronous
 * pool and is awaited (`Atomics.waitAsync`), so an event loop (the server's) keeps serving meanwhile. Same
 * deadline, same errors, same worker replacement on timeout.
 * @throws RegexTimeoutError when the deadline passes (that worker is then replaced).
 * @throws RegexEngineError when V8 refuses the regex or no worker runs.
 * @example
 * await runRegexAsync("test", translatePythonRegex("(a+)+$"), "aaaa"); // true
 */
export async function runRegexAsync<Op extends RegexOperation>(
  op: Op,
  regex: TranslatedRegex,
  text: string,
  options: RegexDeadlineOptions = {},
): Promise<RegexResults[Op]> {
  return (await runJobAsync(regexJob(op, regex, text, options))) as RegexResults[Op];
}

/** Runs `job` on a worker of the asynchronous pool, awaiting its reply. */
export async function runJobAsync(job: RegexJob): Promise<unknown> {
  const worker = await acquire(job.subject);
  let reusable = true;
  try {
    const outcome = await worker.runAsync(job.request, job.timeoutMs);
    return outcomeValue(job, outcome, () => {
      reusable = false;
    });
  } finally {
    release(worker, reusable);
  }
}

async function acquire(subject: string): Promise<RegexWorker> {
  while (busy >= MAX_ASYNC_WORKERS) await new Promise<void>((resolve) => queue.push(resolve));
  busy++;
  let worker: RegexWorker | undefined;
  try {
    do worker = idle.pop();
    while (worker?.exited);
    worker ??= startWorker(subject);
    if (!(await worker.waitUntilReadyAsync(STARTUP_TIMEOUT_MS))) throw startupTimeout(subject);
    return worker;
  } catch (error) {
    if (worker !== undefined) release(worker, false);
    else freeSlot();
    throw error;
  }
}

function release(worker: RegexWorker, reusable: boolean): void {
  if (reusable && !worker.exited) idle.push(worker);
  else worker.terminate();
  freeSlot();
}

function freeSlot(): void {
  busy--;
  queue.shift()?.();
}
