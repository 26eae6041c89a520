import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from "node:worker_threads";
import { CONTROL, REGEX_WORKER_SOURCE, type RegexReply, type RegexRequest } from "./regex-worker-source.js";

/** A worker's boot is not charged to any deadline; this only catches a worker that never comes up. */
export const STARTUP_TIMEOUT_MS = 10_000;
/** Enough for findall on a large response; a runaway allocation ends the worker, not the host. */
const WORKER_HEAP_MB = 512;

/** The worker's reply, `"timeout"` if none came before the deadline, `"lost"` if the signal came alone. */
export type WorkerOutcome = RegexReply | "timeout" | "lost";

/**
 * One worker thread and its shared control slots; see regex-worker-source.ts for the protocol. It serves one
 * request at a time, whether its caller waits synchronously ({@link RegexWorker.run}) or awaits
 * ({@link RegexWorker.runAsync}); the runners never hand one worker to two callers at once.
 */
export class RegexWorker {
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

  async waitUntilReadyAsync(timeoutMs: number): Promise<boolean> {
    this.#ready ||= await waitForChangeAsync(this.#control, CONTROL.READY, 0, timeoutMs);
    return this.#ready;
  }

  /** Runs `request`, the calling thread waiting (`Atomics.wait`) at most `timeoutMs`. */
  run(request: RegexRequest, timeoutMs: number): WorkerOutcome {
    const previous = this.#send(request);
    if (!waitForChange(this.#control, CONTROL.REPLIES, previous, timeoutMs)) return "timeout";
    return this.#reply();
  }

  /** Runs `request`, the calling thread free to serve its event loop meanwhile (`Atomics.waitAsync`). */
  async runAsync(request: RegexRequest, timeoutMs: number): Promise<WorkerOutcome> {
    const previous = this.#send(request);
    if (!(await waitForChangeAsync(this.#control, CONTROL.REPLIES, previous, timeoutMs))) return "timeout";
    return this.#reply();
  }

  /** Posts `request` and wakes the worker; returns the reply count to wait past. */
  #send(request: RegexRequest): number {
    this.#port.postMessage(request);
    const previous = this.#sent++;
    Atomics.store(this.#control, CONTROL.REQUESTS, this.#sent);
    Atomics.notify(this.#control, CONTROL.REQUESTS);
    return previous;
  }

  #reply(): RegexReply | "lost" {
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

/** `Atomics.waitAsync` (ES2024; Node has it since 16), typed here because the project's lib is ES2023. */
type WaitAsync = (
  typedArray: Int32Array,
  index: number,
  value: number,
  timeout?: number,
) => { async: false; value: "not-equal" | "timed-out" } | { async: true; value: Promise<"ok" | "timed-out"> };
const waitAsync = (Atomics as unknown as { waitAsync: WaitAsync }).waitAsync;

/** How much longer than an asynchronous wait its keep-alive timer runs. */
const KEEP_ALIVE_MARGIN_MS = 1_000;

/** {@link waitForChange} without blocking the calling thread. */
async function waitForChangeAsync(
  control: Int32Array,
  slot: number,
  from: number,
  timeoutMs: number,
): Promise<boolean> {
  // A pending Atomics.waitAsync does not keep Node's event loop alive (a CLI run would exit mid-wait): a timer
  // does, and outlasts the wait (one of exactly the wait's length could fire just before the wait's own
  // timeout and leave nothing holding the process); it is cleared as soon as the wait ends.
  const keepAlive = setTimeout(() => {}, timeoutMs + KEEP_ALIVE_MARGIN_MS);
  try {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      if (Atomics.load(control, slot) !== from) return true;
      const left = deadline - performance.now();
      if (left <= 0) return false;
      const waited = waitAsync(control, slot, from, left);
      if (waited.async) await waited.value;
    }
  } finally {
    clearTimeout(keepAlive);
  }
}
