import { SandboxError, SandboxMemoryError } from "../errors.js";
import { PythonExecutionError } from "./errors.js";
import type { JsonValue } from "./json-value.js";
import type { Operation, PythonResponse } from "./protocol.js";
import { PERMISSION_FLAG } from "./sandbox-process.js";
import { WorkerConnection, type WorkerReply } from "./worker-connection.js";

/** Limits of a {@link PythonSandbox}. */
export interface PythonSandboxOptions {
  /** Wall-clock limit of one `run` or `checkSyntax` call, in ms. Default 1000. */
  readonly timeoutMs?: number;
  /**
   * How far, in MB, the interpreter's WebAssembly memory may grow beyond its size at the end of the latest
   * trusted step (startup, or a new `setup`, which itself runs unlimited). Python's whole heap lives in that
   * memory, which never shrinks but whose freed space is reused: this bounds the peak of what the code
   * keeps alive at once, across the calls one interpreter serves. An allocation past it fails inside Python
   * (`MemoryError`), which the call reports as {@link SandboxMemoryError}. Default 64.
   */
  readonly memoryLimitMb?: number;
  /** Limit for starting Pyodide (about 2 s on a laptop) and for each new `setup` snippet, in ms. Default 30000. */
  readonly startupTimeoutMs?: number;
  /**
   * When the interpreter is put back in its state at the end of the latest trusted step (start-up or `setup`)
   * before a call, so that nothing earlier code did (modules it patched, objects it left) can reach it:
   * - `"on-new-code"` (default): before a call whose {@link PythonRunRequest.stateKey} differs from the
   *   previous call's; calls with the same key (the same template, evaluated again) share state.
   * - `"every-call"`: before every call.
   * - `"never"`: calls share one interpreter state, as code in one trust domain may.
   * A restore copies the interpreter's memory back (a few ms); it is not a new process.
   */
  readonly reset?: PythonStateReset;
}

/** See {@link PythonSandboxOptions.reset}. */
export type PythonStateReset = "on-new-code" | "every-call" | "never";

/** One call of {@link PythonSandbox.run}. */
export interface PythonRunRequest {
  /**
   * Trusted code run once per fresh interpreter before `code` (for example a compatibility layer). It runs
   * in a namespace of its own; to share definitions it registers modules in `sys.modules`, which `code`
   * can then import. The sandbox remembers which snippets an interpreter has run, by their text.
   */
  readonly setup?: string;
  /** Untrusted code, executed in a fresh namespace (a new globals dict) for this call only. */
  readonly code: string;
  /** A Python expression evaluated in that namespace after `code`, e.g. `"score"` or `"Answer.verify"`. */
  readonly entry: string;
  /** When present, the entry's value is called with these arguments and the call's result is returned. */
  readonly args?: readonly JsonValue[];
  /**
   * Who the untrusted code is (for example a template's hash), for {@link PythonSandboxOptions.reset}:
   * consecutive calls with the same key may share state. Default: the text of `code` and `entry`.
   */
  readonly stateKey?: string;
}

/** Outcome of {@link PythonSandbox.checkSyntax}; `line` is 1-based, `null` when Python gave none. */
export type PythonSyntaxCheck =
  | { readonly ok: true }
  | { readonly ok: false; readonly message: string; readonly line: number | null };

const DEFAULTS: Required<PythonSandboxOptions> = {
  timeoutMs: 1000,
  memoryLimitMb: 64,
  startupTimeoutMs: 30_000,
  reset: "on-new-code",
};

/**
 * Runs untrusted Python on Pyodide in a child process: no JavaScript object, host file, network, process or
 * environment variable is reachable from Python, and every call has a time and a memory limit. The
 * interpreter starts at the first call (or {@link start}) and is reused; after a timeout, a memory blow-up
 * or a crash its process is killed and the next call starts a fresh one.
 *
 * Should code ever escape Pyodide, it would find itself in a Node process started with an empty environment
 * and, where Node has a permission model ({@link permissionModel}), without the right to write files, start
 * processes or threads, or read any file but Pyodide's and the sandbox's own.
 *
 * Calls run one at a time in one interpreter. Before a call of other code than the previous call's, the
 * interpreter is put back in its state after the trusted setup (see {@link PythonSandboxOptions.reset}), so
 * code cannot leave anything behind for other code: a patched module, a replaced function, a poisoned cache.
 * Each sandbox has its own process: use one per trust domain (for example per benchmark file).
 * @example
 * const sandbox = PythonSandbox.create({ timeoutMs: 500 });
 * await sandbox.run({ code: "def add(a, b):\n    return a + b", entry: "add", args: [2, 3] }); // 5
 * await sandbox.checkSyntax("def f(:\n"); // { ok: false, message: "Syntax error: invalid syntax at line 1", line: 1 }
 * await sandbox.close();
 */
export class PythonSandbox {
  readonly #limits: Required<PythonSandboxOptions>;
  #connection: WorkerConnection | null = null;
  #queue: Promise<unknown> = Promise.resolve();
  #closed = false;
  /** Aborts the worker process being started, if one is. */
  #starting: AbortController | null = null;

  private constructor(limits: Required<PythonSandboxOptions>) {
    this.#limits = limits;
  }

  /** Creates a sandbox; the interpreter itself starts lazily. */
  static create(options: PythonSandboxOptions = {}): PythonSandbox {
    return new PythonSandbox({ ...DEFAULTS, ...options });
  }

  /**
   * Whether the interpreter's process runs under Node's permission model (Node 20 and later): read access to
   * Pyodide's and the sandbox's files only, no file-system write, no child process, no worker thread. Where it
   * is `false` the process still has an empty environment; `NODE_DEBUG=karenina` logs the fallback.
   */
  get permissionModel(): boolean {
    return PERMISSION_FLAG !== null;
  }

  /** Starts the interpreter now rather than at the first call (to take the ~2 s cold start early). */
  start(): Promise<void> {
    return this.#enqueue(async () => {
      await this.#connect();
    });
  }

  /**
   * Runs `code` in a fresh namespace and returns the value of `entry` (called with `args` when given),
   * converted to JSON data: dict (string keys), list, tuple, str, int, float, bool and None.
   * @throws {PythonExecutionError} the code raised, or returned something that is not JSON data.
   * @throws {SandboxTimeoutError} the call ran longer than `timeoutMs`.
   * @throws {SandboxMemoryError} the code needed more than `memoryLimitMb`.
   * @throws {SandboxError} the interpreter could not start, crashed, or the sandbox is closed.
   */
  run(request: PythonRunRequest): Promise<JsonValue> {
    return this.#enqueue(async () => {
      const connection = await this.#connect();
      const { setup, code, entry, args } = request;
      if (setup !== undefined && !connection.setups.has(setup)) {
        await this.#call(connection, "setup", { code: setup }, this.#limits.startupTimeoutMs);
        connection.setups.add(setup);
        connection.stateKey = undefined;
      }
      const stateKey = request.stateKey ?? `${code}\u0000${entry}`;
      const fresh = this.#needsFreshState(connection, stateKey);
      connection.stateKey = stateKey;
      const payload = args === undefined ? { code, entry } : { code, entry, args };
      return (await this.#call(connection, "run", payload, this.#limits.timeoutMs, fresh)) as JsonValue;
    });
  }

  /**
   * Checks that `code` compiles (`compile(code, "<template>", "exec")`), without executing any of it.
   * Messages mirror the original's `validate_templates()`: `Syntax error: <msg> at line <n>` (`n` is
   * `None` when Python gives no line, as for null bytes), or `Parse error: <exception>` when compiling fails
   * otherwise.
   */
  checkSyntax(code: string): Promise<PythonSyntaxCheck> {
    return this.#enqueue(async () => {
      const connection = await this.#connect();
      return (await this.#call(connection, "check", { code }, this.#limits.timeoutMs)) as PythonSyntaxCheck;
    });
  }

  /** Stops the interpreter and waits for its process to end. Later calls fail with {@link SandboxError}. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#starting?.abort();
    const connection = this.#connection;
    this.#connection = null;
    await connection?.terminate();
  }

  /** Whether the next call, of code known by `stateKey`, starts from the state after the trusted setup. */
  #needsFreshState(connection: WorkerConnection, stateKey: string): boolean {
    switch (this.#limits.reset) {
      case "never":
        return false;
      case "every-call":
        return connection.stateKey !== undefined;
      case "on-new-code":
        return connection.stateKey !== undefined && connection.stateKey !== stateKey;
    }
  }

  #enqueue<T>(task: () => Promise<T>): Promise<T> {
    const result = this.#queue.then(task);
    this.#queue = result.catch(() => undefined);
    return result;
  }

  async #connect(): Promise<WorkerConnection> {
    if (this.#closed) throw new SandboxError("the Python sandbox is closed");
    if (this.#connection?.alive) return this.#connection;
    const memoryLimitBytes = this.#limits.memoryLimitMb * 1024 * 1024;
    const starting = new AbortController();
    this.#starting = starting;
    let connection: WorkerConnection;
    try {
      connection = await WorkerConnection.start(
        memoryLimitBytes,
        this.#limits.startupTimeoutMs,
        starting.signal,
      );
    } finally {
      this.#starting = null;
    }
    if (this.#closed) {
      await connection.terminate();
      throw new SandboxError("the Python sandbox is closed");
    }
    this.#connection = connection;
    return connection;
  }

  async #call(
    connection: WorkerConnection,
    op: Operation,
    payload: object,
    timeoutMs: number,
    fresh = false,
  ): Promise<unknown> {
    const reply = await connection.request(op, JSON.stringify({ op, ...payload }), timeoutMs, fresh);
    const outcome = interpretReply(reply, this.#limits.memoryLimitMb);
    if (outcome.fatal) await connection.terminate();
    if (outcome.error) throw outcome.error;
    return outcome.value;
  }
}

type Outcome =
  | { readonly value: unknown; readonly error?: undefined; readonly fatal: false }
  | { readonly error: SandboxError; readonly fatal: boolean };

/**
 * Maps the worker's reply to a value or a typed error. A Python `MemoryError`, or any failure while the
 * memory limit refused to grow the heap, is a {@link SandboxMemoryError}; it and crashes are fatal (the
 * interpreter is discarded, as its heap cannot shrink and its state is unknown).
 */
function interpretReply(reply: WorkerReply, memoryLimitMb: number): Outcome {
  if (reply.type === "crashed") {
    const error = reply.memoryRefused
      ? new SandboxMemoryError(memoryLimitMb, reply.message)
      : new SandboxError(`the Python interpreter crashed: ${reply.message}`);
    return { error, fatal: true };
  }
  const response = JSON.parse(reply.response) as PythonResponse;
  if (response.ok) return { value: response.value, fatal: false };
  if (response.type === "MemoryError" || reply.memoryRefused) {
    const detail = response.message === "" ? response.type : `${response.type}: ${response.message}`;
    return { error: new SandboxMemoryError(memoryLimitMb, detail), fatal: true };
  }
  return {
    error: new PythonExecutionError(response.type, response.message, response.traceback),
    fatal: false,
  };
}
