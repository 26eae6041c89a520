import { InvalidRegexTimeoutError, quotePattern, RegexEngineError, RegexTimeoutError } from "./errors.js";
import { RegexWorker, STARTUP_TIMEOUT_MS, type WorkerOutcome } from "./regex-worker.js";
import type { RegexOperation, RegexRequest, RegexResults } from "./regex-worker-source.js";
import { activeRegexAnswerer } from "./replay-hook.js";
import type { TranslatedRegex } from "./translate.js";

/**
 * Untrusted regexes (checkpoint patterns, strptime formats) never run on the host's thread: V8's backtracking
 * engine cannot be interrupted from inside, and `(a+)+$` on 40 `a`s and a `!` runs for hours. Each one runs
 * in a worker thread under a deadline; at the deadline the worker is terminated and replaced by a fresh one
 * on the next call. Two ways to wait for it:
 * - {@link runRegex} waits synchronously (`Atomics.wait`), so synchronous callers keep their API; the calling
 *   thread is held for up to the deadline.
 * - `runRegexAsync` (async-runner.ts) awaits (`Atomics.waitAsync`), so a server's event loop keeps serving
 *   other requests meanwhile; `withNonBlockingRegexes` (non-blocking.ts) gives synchronous code reached from
 *   an async path (a declarative template's checks) the same.
 * Invariants: one request in flight per worker; a worker that missed a deadline is never reused, so a late
 * reply cannot be taken for the next request's. The synchronous runner has one worker of its own (calls are
 * synchronous, so one is in flight per thread); the asynchronous one a small pool.
 */

/** The deadline of one regex evaluation unless {@link setDefaultRegexTimeout} or `timeoutMs` says otherwise. */
export const DEFAULT_REGEX_TIMEOUT_MS = 1000;

let defaultTimeoutMs = DEFAULT_REGEX_TIMEOUT_MS;

export interface RegexDeadlineOptions {
  /** How long one evaluation may run before it is stopped, in ms; the process default otherwise. */
  timeoutMs?: number;
  /** What the pattern is called in error messages; `regex "<JavaScript source>"` by default. */
  subject?: string;
}

/**
 * Sets the deadline of every regex evaluation that does not pass its own `timeoutMs` (1000 ms at start).
 * @throws InvalidRegexTimeoutError unless `timeoutMs` is a positive, finite number.
 * @example
 * setDefaultRegexTimeout(2000);
 * setDefaultRegexTimeout(DEFAULT_REGEX_TIMEOUT_MS);
 */
export function setDefaultRegexTimeout(timeoutMs: number): void {
  defaultTimeoutMs = checkedTimeout(timeoutMs);
}

function checkedTimeout(timeoutMs: number): number {
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw new InvalidRegexTimeoutError(timeoutMs);
  }
  return timeoutMs;
}

/** One evaluation as the worker takes it, with its deadline and the name its errors give the pattern. */
export interface RegexJob {
  request: RegexRequest;
  timeoutMs: number;
  subject: string;
  textLength: number;
}

/** The job of running `op` of `regex` on `text` (checks the deadline). */
export function regexJob(
  op: RegexOperation,
  regex: TranslatedRegex,
  text: string,
  options: RegexDeadlineOptions,
): RegexJob {
  return {
    request: { op, source: regex.source, flags: regex.flags, text },
    timeoutMs: checkedTimeout(options.timeoutMs ?? defaultTimeoutMs),
    subject: options.subject ?? `regex ${quotePattern(regex.source)}`,
    textLength: codePointCount(text),
  };
}

/**
 * The value of a worker's outcome, or the typed error it stands for; `retire` is told when the worker must
 * not serve again (it missed the deadline, or lost its reply).
 */
export function outcomeValue(job: RegexJob, outcome: WorkerOutcome, retire: () => void): unknown {
  if (outcome === "timeout") {
    retire();
    throw new RegexTimeoutError(job.subject, job.timeoutMs, job.textLength);
  }
  if (outcome === "lost") {
    retire();
    throw new RegexEngineError(job.subject, "the regex worker signalled a reply but sent none");
  }
  if (!outcome.ok) {
    throw new RegexEngineError(
      job.subject,
      `${outcome.error.name}: ${outcome.error.message}`,
      outcome.error.message,
    );
  }
  return outcome.value;
}

/** A new worker, or the typed error saying why none could start. */
export function startWorker(subject: string): RegexWorker {
  try {
    return new RegexWorker();
  } catch (error) {
    throw new RegexEngineError(subject, `the regex worker thread could not start (${String(error)})`);
  }
}

/** The error of a worker that did not come up within {@link STARTUP_TIMEOUT_MS}. */
export function startupTimeout(subject: string): RegexEngineError {
  return new RegexEngineError(
    subject,
    `the regex worker thread did not start within ${STARTUP_TIMEOUT_MS} ms`,
  );
}

/**
 * Runs one operation of a translated regex on a text in the regex worker, and returns its result; the
 * operations are listed in {@link RegexResults}. Synchronous: the calling thread waits at most the deadline
 * (inside `withNonBlockingRegexes`, the evaluation is awaited off the calling thread instead).
 * @throws RegexTimeoutError when the deadline passes (the worker is then replaced; later calls run normally).
 * @throws RegexEngineError when V8 refuses the regex (e.g. "Regular expression too large") or no worker runs.
 * @example
 * runRegex("findall", translatePythonRegex(String.raw`(\w)=(\d)`), "a=1 b=2"); // [["a", "1"], ["b", "2"]]
 * runRegex("test", translatePythonRegex("(a+)+$"), "aaaa"); // true
 */
export function runRegex<Op extends RegexOperation>(
  op: Op,
  regex: TranslatedRegex,
  text: string,
  options: RegexDeadlineOptions = {},
): RegexResults[Op] {
  const job = regexJob(op, regex, text, options);
  const answerer = activeRegexAnswerer();
  if (answerer !== null) return answerer(job) as RegexResults[Op];
  return runJobNow(job) as RegexResults[Op];
}

let current: RegexWorker | null = null;

/** Runs `job` on the synchronous runner's worker, the calling thread waiting. */
function runJobNow(job: RegexJob): unknown {
  const worker = readyWorker(job.subject);
  return outcomeValue(job, worker.run(job.request, job.timeoutMs), () => retire(worker));
}

function readyWorker(subject: string): RegexWorker {
  if (current?.exited) current = null;
  current ??= startWorker(subject);
  const worker = current;
  if (!worker.waitUntilReady(STARTUP_TIMEOUT_MS)) {
    retire(worker);
    throw startupTimeout(subject);
  }
  return worker;
}

function retire(worker: RegexWorker): void {
  if (current === worker) current = null;
  worker.terminate();
}

function codePointCount(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}
