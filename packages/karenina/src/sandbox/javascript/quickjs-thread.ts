import { Worker } from "node:worker_threads";
import { SandboxError, SandboxMemoryError, SandboxTimeoutError } from "../errors.js";
import type { EngineLimits } from "./quickjs-engine.js";
import { compiledQuickJs } from "./wasm-code.js";
import { quickJsWorkerEntry } from "./worker-entry.js";
import {
  fromWire,
  type QuickJsWorkerData,
  sharedClock,
  type WorkerReply,
  type WorkerRequest,
} from "./worker-protocol.js";

/**
 * How long past its limit an engine operation may run before the watchdog terminates the thread. QuickJS's
 * own interrupt normally stops it at the limit (and keeps the thread); this margin is for its unwinding.
 */
const WATCHDOG_GRACE_MS = 250;
/** How long a request may wait for the thread to start (load the module) before the thread is given up. */
const STARTUP_LIMIT_MS = 30_000;
/** The V8 heap of the thread: JSON text crossing the boundary and QuickJS's glue; the wasm memory is apart. */
const BASE_HEAP_MB = 64;

/** A successful reply: what `load` and `call` give back. */
export type ThreadResult = Omit<WorkerReply, "error">;

interface Pending {
  readonly resolve: (reply: ThreadResult) => void;
  readonly reject: (error: SandboxError) => void;
  readonly postedAt: number;
}

/**
 * One worker thread running QuickJS, and the requests sent to it, one at a time (the caller serialises
 * them). A request whose engine operation runs `timeoutMs` + {@link WATCHDOG_GRACE_MS} is failed with
 * {@link SandboxTimeoutError} and the thread is terminated, which stops even a native call that never
 * reaches QuickJS's interrupt check. The thread's V8 heap is capped (`resourceLimits`); running out of it,
 * a crash or an exit also end the thread, and every later request is refused. While no request is pending
 * the thread does not keep the host's event loop alive.
 */
export class QuickJsThread {
  readonly #worker: Worker;
  readonly #limits: EngineLimits;
  readonly #busy: Float64Array;
  #pending: Pending | null = null;
  #timer: NodeJS.Timeout | null = null;
  #death: SandboxError | null = null;
  readonly #exited: Promise<void>;
  /** The serial of the live engine in the thread, or null when none is known to hold scripts. */
  #engine: number | null = null;

  private constructor(worker: Worker, limits: EngineLimits, busySince: SharedArrayBuffer) {
    this.#worker = worker;
    this.#limits = limits;
    this.#busy = new Float64Array(busySince);
    this.#exited = new Promise((resolve) => worker.once("exit", () => resolve()));
    worker.unref();
    worker.on("message", (reply: WorkerReply) => this.#settle(reply));
    worker.on("error", (error: Error & { code?: string }) => this.#die(threadFailure(error, limits)));
    worker.on("exit", (code) =>
      this.#die(new SandboxError(`the QuickJS worker thread exited (code ${code})`)),
    );
  }

  /** Starts a thread; the module loads in it while the first request waits. */
  static async spawn(limits: EngineLimits): Promise<QuickJsThread> {
    const busySince = new SharedArrayBuffer(Float64Array.BYTES_PER_ELEMENT);
    const [entry, wasmModule] = await Promise.all([quickJsWorkerEntry(), compiledQuickJs()]).catch(
      (error: unknown) => {
        throw new SandboxError(`the QuickJS worker could not be prepared: ${String(error)}`);
      },
    );
    const workerData: QuickJsWorkerData = { limits, busySince, wasmModule };
    let worker: Worker;
    try {
      worker = new Worker(entry, {
        workerData,
        env: {},
        // The host's own Node flags (a loader such as tsx's, --inspect) are not the sandbox's business.
        execArgv: [],
        resourceLimits: { maxOldGenerationSizeMb: BASE_HEAP_MB + 3 * Math.ceil(limits.memoryLimitMb) },
      });
    } catch (error) {
      // For example Node's permission model without --allow-worker.
      throw new SandboxError(`the JavaScript sandbox could not start its worker thread: ${String(error)}`);
    }
    return new QuickJsThread(worker, limits, busySince);
  }

  /** False once the thread died, was terminated or lost its module: requests are refused. */
  get usable(): boolean {
    return this.#death === null;
  }

  /** The serial of the engine that holds the scripts loaded since it started, or null. */
  get engine(): number | null {
    return this.#engine;
  }

  /**
   * Sends one request and waits for its reply. Fails with the typed error the worker reported, a
   * {@link SandboxTimeoutError} from the watchdog, or the error that ended the thread.
   */
  request(request: Exclude<WorkerRequest, { op: "release" }>): Promise<ThreadResult> {
    if (this.#death) return Promise.reject(this.#death);
    if (this.#pending) return Promise.reject(new SandboxError("the QuickJS worker is busy"));
    return new Promise<ThreadResult>((resolve, reject) => {
      this.#pending = { resolve, reject, postedAt: sharedClock() };
      this.#worker.ref();
      this.#arm(this.#limits.timeoutMs + WATCHDOG_GRACE_MS);
      this.#worker.postMessage(request);
    });
  }

  /** Frees a script's value in engine `engine`, if that engine still runs; never waits, never fails. */
  release(engine: number, id: number): void {
    if (this.#death === null && this.#engine === engine) {
      this.#worker.postMessage({ op: "release", engine, id } satisfies WorkerRequest);
    }
  }

  /** Terminates the thread; a pending request fails with `reason`. Resolves once the thread is gone. */
  terminate(reason: SandboxError): Promise<void> {
    this.#die(reason);
    return this.#exited;
  }

  #settle(reply: WorkerReply): void {
    const pending = this.#pending;
    if (pending === null) return;
    this.#release();
    this.#engine = reply.retired ? null : reply.engine;
    if (reply.moduleLost) {
      this.#die(new SandboxError("the QuickJS worker lost its WebAssembly module and was replaced"));
    }
    if (reply.error) pending.reject(fromWire(reply.error));
    else pending.resolve(reply);
  }

  /** Checks the running operation against its deadline, and comes back when it is due. */
  #watch(): void {
    this.#timer = null;
    const pending = this.#pending;
    if (pending === null) return;
    const now = sharedClock();
    const busySince = this.#busy[0] ?? 0;
    const deadline =
      busySince > 0
        ? busySince + this.#limits.timeoutMs + WATCHDOG_GRACE_MS
        : pending.postedAt + STARTUP_LIMIT_MS;
    if (now < deadline) {
      // Not busy yet (loading) or finishing: look again soon rather than wait for the startup limit.
      this.#arm(busySince > 0 ? deadline - now : Math.min(deadline - now, WATCHDOG_GRACE_MS));
      return;
    }
    this.#die(
      busySince > 0
        ? new SandboxTimeoutError(this.#limits.timeoutMs)
        : new SandboxError(`the QuickJS worker did not start within ${STARTUP_LIMIT_MS} ms`),
    );
  }

  #arm(delayMs: number): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.#watch(), Math.max(1, delayMs));
  }

  /** Forgets the pending request and lets the thread idle without holding the event loop. */
  #release(): void {
    this.#pending = null;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    if (this.#death === null) this.#worker.unref();
  }

  #die(error: SandboxError): void {
    if (this.#death === null) {
      this.#death = error;
      this.#engine = null;
      void this.#worker.terminate();
    }
    const pending = this.#pending;
    if (pending === null) return;
    this.#release();
    pending.reject(error);
  }
}

/** The error for a worker's `error` event: its heap cap reached, or an uncaught failure. */
function threadFailure(error: Error & { code?: string }, limits: EngineLimits): SandboxError {
  if (error.code === "ERR_WORKER_OUT_OF_MEMORY") {
    return new SandboxMemoryError(limits.memoryLimitMb, "its worker thread ran out of JavaScript heap");
  }
  return new SandboxError(`the QuickJS worker thread failed: ${error.name}: ${error.message}`);
}
