import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { Worker, type WorkerOptions } from "node:worker_threads";
import { SandboxError, SandboxMemoryError, SandboxTimeoutError } from "./errors.js";
import type {
  CrashedMessage,
  DoneMessage,
  Operation,
  WorkerData,
  WorkerMessage,
  WorkerRequest,
} from "./protocol.js";

/** Cap on the worker's JavaScript heap (V8 old generation). Pyodide's WebAssembly memory is not part of it. */
const WORKER_JS_HEAP_LIMIT_MB = 256;

/**
 * Memory image of a freshly started interpreter, made by the first worker of the process before it ran
 * anything; later workers (other sandboxes, restarts after a timeout) start from it.
 */
let freshInterpreter: Uint8Array | null = null;

/** How the worker answered one request. */
export type WorkerReply = DoneMessage | CrashedMessage;

interface Pending {
  readonly resolve: (reply: WorkerReply) => void;
  readonly reject: (error: SandboxError) => void;
  readonly timer: NodeJS.Timeout;
}

/**
 * One Pyodide worker thread and the requests sent to it, one at a time. A timeout terminates the worker; so
 * does any failure of the thread. Once dead, every request is refused with the error that killed it.
 */
export class WorkerConnection {
  /** Trusted setup snippets this interpreter has already run. */
  readonly setups = new Set<string>();
  #pending: Pending | null = null;
  #death: SandboxError | null = null;
  #nextId = 1;

  private constructor(private readonly worker: Worker) {
    worker.on("message", (message: WorkerMessage) => {
      if (message.type === "done" || message.type === "crashed") this.#settle((p) => p.resolve(message));
    });
    worker.on("error", (error) => this.#die(describeWorkerError(error)));
    worker.on("exit", (code) => this.#die(new SandboxError(`the Python worker exited (code ${code})`)));
    worker.unref();
  }

  /** Starts a worker and resolves once Pyodide is loaded and locked down. */
  static start(memoryLimitBytes: number, startupTimeoutMs: number): Promise<WorkerConnection> {
    const worker = spawnWorker({ memoryLimitBytes, snapshot: freshInterpreter });
    return new Promise<WorkerConnection>((resolve, reject) => {
      const settle = (outcome: WorkerConnection | SandboxError): void => {
        clearTimeout(timer);
        worker.off("message", onMessage).off("error", onError).off("exit", onExit);
        if (outcome instanceof WorkerConnection) {
          resolve(outcome);
        } else {
          void worker.terminate();
          reject(outcome);
        }
      };
      const onMessage = (message: WorkerMessage): void => {
        if (message.type === "snapshot") {
          freshInterpreter ??= message.snapshot;
          return;
        }
        settle(
          message.type === "ready"
            ? new WorkerConnection(worker)
            : new SandboxError(`the Python sandbox failed to start: ${describeMessage(message)}`),
        );
      };
      const onError = (error: Error): void => settle(describeWorkerError(error));
      const onExit = (code: number): void =>
        settle(new SandboxError(`the Python worker exited during startup (code ${code})`));
      const timer = setTimeout(
        () => settle(new SandboxError(`the Python sandbox did not start within ${startupTimeoutMs} ms`)),
        startupTimeoutMs,
      );
      worker.on("message", onMessage).on("error", onError).on("exit", onExit);
    });
  }

  /** Whether the worker can still take requests. */
  get alive(): boolean {
    return this.#death === null;
  }

  /** Sends one request; rejects with {@link SandboxTimeoutError} (and kills the worker) after `timeoutMs`. */
  request(op: Operation, request: string, timeoutMs: number): Promise<WorkerReply> {
    if (this.#death) return Promise.reject(this.#death);
    if (this.#pending) return Promise.reject(new SandboxError("the Python worker is busy"));
    const message: WorkerRequest = { id: this.#nextId++, op, request };
    return new Promise<WorkerReply>((resolve, reject) => {
      const timer = setTimeout(() => this.#die(new SandboxTimeoutError(timeoutMs)), timeoutMs);
      this.#pending = { resolve, reject, timer };
      this.worker.ref();
      this.worker.postMessage(message);
    });
  }

  /** Terminates the worker; pending and later requests fail. */
  async terminate(): Promise<void> {
    this.#die(new SandboxError("the Python sandbox was closed"));
    await this.worker.terminate();
  }

  #settle(act: (pending: Pending) => void): void {
    const pending = this.#pending;
    if (!pending) return;
    this.#pending = null;
    clearTimeout(pending.timer);
    this.worker.unref();
    act(pending);
  }

  #die(error: SandboxError): void {
    if (this.#death) return;
    this.#death = error;
    this.#settle((p) => p.reject(error));
    void this.worker.terminate();
  }
}

/**
 * Built code runs the compiled `python-worker.js` beside this file. Source code (Vitest, tsx) has only
 * `python-worker.ts`, which plain Node cannot load: an `eval` bootstrap registers tsx's loader in the worker
 * first (tsx is a dev dependency of the workspace).
 */
function spawnWorker(workerData: WorkerData): Worker {
  const options: WorkerOptions = {
    workerData,
    env: {},
    argv: [],
    resourceLimits: { maxOldGenerationSizeMb: WORKER_JS_HEAP_LIMIT_MB },
  };
  if (!import.meta.url.endsWith(".ts"))
    return new Worker(new URL("./python-worker.js", import.meta.url), options);
  const entry = JSON.stringify(new URL("./python-worker.ts", import.meta.url).href);
  const tsxApi = JSON.stringify(tsxEsmApiUrl());
  const bootstrap = `import(${tsxApi}).then((tsx) => { tsx.register(); return import(${entry}); });`;
  return new Worker(bootstrap, { ...options, eval: true });
}

/**
 * The URL of tsx's ESM API, resolved from this file rather than from the worker's working directory (which
 * may be anywhere). Its CommonJS build cannot be used: it loads the ESM one by a relative path.
 */
function tsxEsmApiUrl(): string {
  const manifest = createRequire(import.meta.url).resolve("tsx/package.json");
  const { exports } = JSON.parse(readFileSync(manifest, "utf8")) as {
    exports: Record<string, { import: { default: string } }>;
  };
  const entry = exports["./esm/api"]?.import.default ?? "./dist/esm/api/index.mjs";
  return pathToFileURL(join(dirname(manifest), entry)).href;
}

function describeWorkerError(error: Error): SandboxError {
  if ((error as NodeJS.ErrnoException).code === "ERR_WORKER_OUT_OF_MEMORY") {
    return new SandboxMemoryError(WORKER_JS_HEAP_LIMIT_MB, "the worker's JavaScript heap is full");
  }
  return new SandboxError(`the Python worker failed: ${error.message}`, { cause: error });
}

function describeMessage(message: WorkerMessage): string {
  return message.type === "start-failed" ? message.message : `unexpected message ${message.type}`;
}
