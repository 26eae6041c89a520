import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from "node:worker_threads";
import { InvalidRegexTimeoutError, quotePattern, RegexEngineError, RegexTimeoutError } from "./errors.js";
import {
  CONTROL,
  REGEX_WORKER_SOURCE,
  type RegexOperation,
  type RegexReply,
  type RegexRequest,
  type RegexResults,
} from "./regex-worker-source.js";
import type { TranslatedRegex } from "./translate.js";

/**
 * Untrusted regexes (checkpoint patterns, strptime formats) never run on the host's thread: V8's backtracking
 * engine cannot be interrupted from inside, and `(a+)+$` on 40 `a`s and a `!` runs for hours. Each one runs
 * in a worker thread while the caller waits synchronously (`Atomics.wait`), so the callers' synchronous API
 * stays; at the deadline the worker is terminated and replaced by a fresh one on the next call.
 * Invariants: one request in flight per thread (calls are synchronous); a worker that missed a deadline is
 * never reused, so a late reply cannot be taken for the next request's.
 */

/** The deadline of one regex evaluation unless {@link setDefaultRegexTimeout} or `timeoutMs` says otherwise. */
export const DEFAULT_REGEX_TIMEOUT_MS = 1000;
/** A worker's boot is not charged to any deadline; this only catches a worker that never comes up. */
const STARTUP_TIMEOUT_MS = 10_000;
/** Enough for findall on a large response; a runaway allocation ends the worker, not the host. */
const WORKER_HEAP_MB = 512;

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

/**
 * Runs one operation of a translated regex on a text in the regex worker, and returns its result; the
 * operations are listed in {@link RegexResults}. Synchronous: the calling thread waits at most the deadline.
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
  const timeoutMs = checkedTimeout(options.timeoutMs ?? defaultTimeoutMs);
  const subject = options.subject ?? `regex ${quotePattern(regex.source)}`;
  const worker = readyWorker(subject);
  const reply = worker.run({ op, source: regex.source, flags: regex.flags, text }, timeoutMs);
  if (reply === "timeout") {
    retire(worker);
    throw new RegexTimeoutError(subject, timeoutMs, codePointCount(text));
  }
  if (reply === "lost") {
    retire(worker);
    throw new RegexEngineError(subject, "the regex worker signalled a reply but sent none");
  }
  if (!reply.ok) {
    throw new RegexEngineError(subject, `${reply.error.name}: ${reply.error.message}`, reply.error.message);
  }
  return reply.value as RegexResults[Op];
}

let current: RegexWorker | null = null;

function readyWorker(subject: string): RegexWorker {
  if (current?.exited) current = null;
  if (current === null) {
    try {
      current = new RegexWorker();
    } catch (error) {
      throw new RegexEngineError(subject, `the regex worker thread could not start (${String(error)})`);
    }
  }
  const worker = current;
  if (!worker.waitUntilReady(STARTUP_TIMEOUT_MS)) {
    retire(worker);
    throw new RegexEngineError(
      subject,
      `the regex worker thread did not start within ${STARTUP_TIMEOUT_MS} ms`,
    );
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

/** One worker thread and its shared control slots; see regex-worker-source.ts for the protocol. */
class RegexWorker {
  readonly #worker: Worker;
  readonly #port: MessagePort;
  readonly #control = new Int32Array(new SharedArrayBuffer(CONTROL.LENGTH * Int32Array.BYTES_PER_ELEMENT));
  #sent = 0;
  #ready = false;
  /** Set once the thread has ended (terminated, out of memory, crashed); such a worker is replaced. */
  exited = false;

  constructor() {
    const { port1, port2 } = new MessageChannel();
    this.#port = port1;
    this.#worker = new Worker(REGEX_WORKER_SOURCE, {
      eval: true,
      workerData: { control: this.#control, port: port2 },
      transferList: [port2],
      execArgv: [],
      env: {},
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
    });
    // Neither keeps the host alive; an error event without a listener would crash the host.
    this.#worker.unref();
    this.#port.unref();
    this.#worker.on("error", () => {});
    this.#worker.once("exit", () => {
      this.exited = true;
    });
  }

  waitUntilReady(timeoutMs: number): boolean {
    this.#ready ||= waitForChange(this.#control, CONTROL.READY, 0, timeoutMs);
    return this.#ready;
  }

  /** The worker's reply, `"timeout"` if none came before the deadline, `"lost"` if the signal came alone. */
  run(request: RegexRequest, timeoutMs: number): RegexReply | "timeout" | "lost" {
    this.#port.postMessage(request);
    const previous = this.#sent++;
    Atomics.store(this.#control, CONTROL.REQUESTS, this.#sent);
    Atomics.notify(this.#control, CONTROL.REQUESTS);
    if (!waitForChange(this.#control, CONTROL.REPLIES, previous, timeoutMs)) return "timeout";
    const received = receiveMessageOnPort(this.#port);
    return received === undefined ? "lost" : (received.message as RegexReply);
  }

  terminate(): void {
    this.exited = true;
    this.#port.close();
    this.#worker.terminate().catch(() => {});
  }
}

/** Waits until `control[slot]` is no longer `from`; false if that takes longer than `timeoutMs`. */
function waitForChange(control: Int32Array, slot: number, from: number, timeoutMs: number): boolean {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    if (Atomics.load(control, slot) !== from) return true;
    const left = deadline - performance.now();
    if (left <= 0) return false;
    Atomics.wait(control, slot, from, left);
  }
}
