import type { ChildProcess } from "node:child_process";
import { readFileSync, realpathSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, sep } from "node:path";
import type { Readable } from "node:stream";
import { pathToFileURL } from "node:url";
import { debuglog } from "node:util";
import { SandboxError, SandboxMemoryError, SandboxTimeoutError } from "../errors.js";
import { SandboxConfinementError, sandboxMemoryCapMb } from "./os-confinement/index.js";
import type {
  CrashedMessage,
  DoneMessage,
  Operation,
  WorkerData,
  WorkerMessage,
  WorkerRequest,
} from "./protocol.js";
import { pythonSandboxSource } from "./python-source.js";
import { spawnSandboxProcess } from "./sandbox-process.js";
import {
  readCachedSnapshot,
  snapshotCacheDirectory,
  snapshotCacheFile,
  writeCachedSnapshot,
} from "./snapshot-cache.js";

/** Cap on the worker's JavaScript heap (V8 old generation). Pyodide's WebAssembly memory is not part of it. */
const WORKER_JS_HEAP_LIMIT_MB = 256;

const debug = debuglog("karenina");

/** How much of the worker's standard error is kept to explain its death. */
const STDERR_TAIL_CHARS = 4000;

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
 * One Pyodide worker process and the requests sent to it, one at a time. A timeout kills the process; so
 * does any failure of it. Once dead, every request is refused with the error that killed it. While no request
 * is pending the process does not keep the host's event loop alive.
 */
export class WorkerConnection {
  /** Trusted setup snippets this interpreter has already run. */
  readonly setups = new Set<string>();
  /**
   * Whose code the interpreter's state holds (see `PythonRunRequest.stateKey`): `undefined` while it is as
   * the latest trusted step (start-up or setup) left it.
   */
  stateKey: string | undefined = undefined;
  readonly #child: ChildProcess;
  readonly #exited: Promise<void>;
  #pending: Pending | null = null;
  #death: SandboxError | null = null;
  #nextId = 1;

  private constructor(child: ChildProcess, stderr: () => string) {
    this.#child = child;
    this.#exited = exited(child);
    child.on("message", (message: WorkerMessage) => {
      if (message.type === "done" || message.type === "crashed") this.#settle((p) => p.resolve(message));
    });
    child.on("error", (error) => this.#die(describeFailure(error)));
    child.on("close", (code, signal) => this.#die(describeExit("exited", code, signal, stderr())));
    release(child);
  }

  /**
   * Starts a worker process and resolves once Pyodide is loaded and locked down. Aborting `signal` kills a
   * process still starting (and rejects), so that it does not keep the host alive for the rest of its start.
   */
  static async start(
    memoryLimitBytes: number,
    startupTimeoutMs: number,
    signal?: AbortSignal,
  ): Promise<WorkerConnection> {
    const pyodide = pyodidePackage();
    // Read before any process starts: a missing file is the installation's fault, not the snapshot's.
    const sandboxSource = pythonSandboxSource();
    const cached = freshInterpreter === null ? cachedSnapshot(pyodide) : null;
    const limits = { memoryLimitBytes, startupTimeoutMs, sandboxSource, ...(signal ? { signal } : {}) };
    try {
      const connection = await WorkerConnection.#spawn(
        pyodide,
        freshInterpreter ?? cached?.image ?? null,
        limits,
      );
      if (cached !== null) freshInterpreter ??= cached.image;
      return connection;
    } catch (error) {
      if (cached === null || error instanceof SandboxConfinementError || signal?.aborted) throw error;
      // A snapshot from disk that does not start (another build wrote it, say) is dropped, once.
      cached.discard();
      return WorkerConnection.#spawn(pyodide, null, limits);
    }
  }

  /** Starts a worker process from `snapshot` (or from nothing, making one), resolving once it is ready. */
  static async #spawn(
    pyodide: PyodidePackage,
    snapshot: Uint8Array | null,
    { memoryLimitBytes, startupTimeoutMs, sandboxSource, signal }: StartLimits,
  ): Promise<WorkerConnection> {
    const child = await spawnSandboxProcess(workerEntry(), {
      jsHeapLimitMb: WORKER_JS_HEAP_LIMIT_MB,
      readPaths: [pyodide.pyodideDirectory],
      memoryCapMb: sandboxMemoryCapMb(memoryLimitBytes / (1024 * 1024)),
    }).catch((error: unknown) => {
      if (error instanceof SandboxConfinementError) throw error;
      throw new SandboxError(`the Python sandbox could not start its process: ${String(error)}`, {
        cause: error,
      });
    });
    const stderr = keepTail(child.stderr);
    const data: WorkerData = {
      pyodideDirectory: pyodide.pyodideDirectory,
      pyodideModule: pyodide.pyodideModule,
      memoryLimitBytes,
      snapshot,
      sandboxSource,
    };
    return new Promise<WorkerConnection>((resolve, reject) => {
      const settle = (outcome: WorkerConnection | SandboxError): void => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        child.off("message", onMessage).off("error", onError).off("close", onClose);
        if (outcome instanceof WorkerConnection) {
          resolve(outcome);
        } else {
          child.kill("SIGKILL");
          reject(outcome);
        }
      };
      const onMessage = (message: WorkerMessage): void => {
        if (message.type === "snapshot") {
          freshInterpreter ??= message.snapshot;
          const file = snapshotFile(pyodide);
          if (file !== null) writeCachedSnapshot(file, message.snapshot);
          return;
        }
        settle(
          message.type === "ready"
            ? new WorkerConnection(child, stderr)
            : new SandboxError(`the Python sandbox failed to start: ${describeMessage(message)}`),
        );
      };
      const onError = (error: Error): void => settle(describeFailure(error));
      const onClose = (code: number | null, signal: NodeJS.Signals | null): void =>
        settle(describeExit("exited during startup", code, signal, stderr()));
      const onAbort = (): void => settle(new SandboxError("the Python sandbox is closed"));
      const timer = setTimeout(
        () => settle(new SandboxError(`the Python sandbox did not start within ${startupTimeoutMs} ms`)),
        startupTimeoutMs,
      );
      if (signal?.aborted) return onAbort();
      signal?.addEventListener("abort", onAbort, { once: true });
      child.on("message", onMessage).on("error", onError).on("close", onClose);
      child.send(data);
    });
  }

  /** Whether the worker can still take requests. */
  get alive(): boolean {
    return this.#death === null;
  }

  /**
   * Sends one request (`fresh`: after restoring the state of the latest trusted step); rejects with
   * {@link SandboxTimeoutError} (and kills the worker) after `timeoutMs`.
   */
  request(op: Operation, request: string, timeoutMs: number, fresh = false): Promise<WorkerReply> {
    if (this.#death) return Promise.reject(this.#death);
    if (this.#pending) return Promise.reject(new SandboxError("the Python worker is busy"));
    const message: WorkerRequest = fresh
      ? { id: this.#nextId++, op, request, fresh }
      : { id: this.#nextId++, op, request };
    return new Promise<WorkerReply>((resolve, reject) => {
      const timer = setTimeout(() => this.#die(new SandboxTimeoutError(timeoutMs)), timeoutMs);
      this.#pending = { resolve, reject, timer };
      hold(this.#child);
      this.#child.send(message);
    });
  }

  /** Kills the worker process and waits for it to end; pending and later requests fail. */
  async terminate(): Promise<void> {
    this.#die(new SandboxError("the Python sandbox was closed"));
    this.#child.ref();
    await this.#exited;
  }

  #settle(act: (pending: Pending) => void): void {
    const pending = this.#pending;
    if (!pending) return;
    this.#pending = null;
    clearTimeout(pending.timer);
    release(this.#child);
    act(pending);
  }

  #die(error: SandboxError): void {
    if (this.#death) return;
    this.#death = error;
    this.#settle((p) => p.reject(error));
    this.#child.kill("SIGKILL");
  }
}

/**
 * Built code runs the compiled `python-worker.js` beside this file; source code (Vitest, tsx) runs
 * `python-worker.ts`, which {@link spawnSandboxProcess} bundles first.
 */
function workerEntry(): URL {
  const extension = import.meta.url.endsWith(".ts") ? "ts" : "js";
  return new URL(`./python-worker.${extension}`, import.meta.url);
}

/**
 * Where the `pyodide` package is: its directory (real path, ending in a separator), which holds its wasm and
 * standard library, and the URL of its ES module (the `import` entry of its `exports`).
 */
function pyodidePackage(): PyodidePackage {
  const manifest = realpathSync(createRequire(import.meta.url).resolve("pyodide/package.json"));
  const { exports, version } = JSON.parse(readFileSync(manifest, "utf8")) as {
    exports?: Record<string, { import?: string }>;
    version?: string;
  };
  const directory = dirname(manifest);
  const entry = exports?.["."]?.import ?? "./pyodide.mjs";
  return {
    pyodideDirectory: directory + sep,
    pyodideModule: pathToFileURL(join(directory, entry)).href,
    version: version ?? "unknown",
  };
}

/** Pyodide's files, and its version (part of the snapshot cache's key). */
interface PyodidePackage extends Pick<WorkerData, "pyodideDirectory" | "pyodideModule"> {
  readonly version: string;
}

/** The limits of starting one worker, and the Python it runs first. */
interface StartLimits {
  readonly memoryLimitBytes: number;
  readonly startupTimeoutMs: number;
  readonly sandboxSource: string;
  readonly signal?: AbortSignal;
}

/** Where this Pyodide's snapshot is kept between processes, or null when the cache is off. */
function snapshotFile(pyodide: PyodidePackage): string | null {
  const directory = snapshotCacheDirectory();
  return directory === null ? null : snapshotCacheFile(directory, pyodide.pyodideDirectory, pyodide.version);
}

/** The snapshot a previous process kept on disk, and a way to drop it; null when there is none to trust. */
function cachedSnapshot(pyodide: PyodidePackage): { image: Uint8Array; discard(): void } | null {
  const file = snapshotFile(pyodide);
  const image = file === null ? null : readCachedSnapshot(file);
  if (file === null || image === null) return null;
  debug("Python sandbox: starting from the snapshot kept in %s", file);
  return { image, discard: () => rmSync(file, { force: true }) };
}

/** Lets the host's event loop end while the worker idles. */
function release(child: ChildProcess): void {
  child.unref();
  child.channel?.unref();
}

/** Keeps the host's event loop alive while a request is pending. */
function hold(child: ChildProcess): void {
  child.ref();
  child.channel?.ref();
}

/** Resolves once the process has ended (at once if it already has). */
function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once("exit", () => resolve()));
}

/** Reads a process's standard error without keeping the event loop alive; returns its last few thousand characters. */
function keepTail(stream: Readable | null): () => string {
  let tail = "";
  stream?.setEncoding("utf8");
  stream?.on("data", (chunk: string) => {
    tail = (tail + chunk).slice(-STDERR_TAIL_CHARS);
  });
  (stream as Partial<{ unref(): void }> | null)?.unref?.();
  return () => tail.trim();
}

/** Why the worker process ended: a full JavaScript heap is a {@link SandboxMemoryError}. */
function describeExit(
  what: string,
  code: number | null,
  signal: NodeJS.Signals | null,
  stderr: string,
): SandboxError {
  if (/heap out of memory|Reached heap limit/.test(stderr)) {
    return new SandboxMemoryError(WORKER_JS_HEAP_LIMIT_MB, "the worker's JavaScript heap is full");
  }
  const how = signal === null ? `code ${code}` : `signal ${signal}`;
  return new SandboxError(`the Python worker ${what} (${how})${stderr === "" ? "" : `: ${stderr}`}`);
}

function describeFailure(error: Error): SandboxError {
  return new SandboxError(`the Python worker failed: ${error.message}`, { cause: error });
}

function describeMessage(message: WorkerMessage): string {
  return message.type === "start-failed" ? message.message : `unexpected message ${message.type}`;
}
