import { SandboxError } from "../errors.js";
import type { JsonValue } from "../python/json-value.js";
import type { EngineLimits } from "./quickjs-engine.js";
import { QuickJsThread } from "./quickjs-thread.js";

/** Limits of a {@link JavaScriptSandbox}. */
export interface JavaScriptSandboxOptions {
  /**
   * Wall-clock limit of one `load` or `call`, in ms. Default 1000. QuickJS checks it between bytecode
   * instructions and inside regular-expression matching; one long native operation (an `indexOf` on
   * megabytes of text, a sort of millions of strings) that never reaches that check is stopped by
   * terminating the sandbox's worker thread 250 ms past the limit.
   */
  readonly timeoutMs?: number;
  /**
   * How far, in MB, QuickJS's WebAssembly memory may grow beyond the 16 MB it starts with (of which its
   * stack and built-ins take a few). The whole heap counts: every loaded script and what a call allocates.
   * An allocation past it fails with {@link SandboxMemoryError}. Default 64. A value crossing to the host
   * as more than 16 MB of JSON text fails the same way, whatever this limit: JSON of shared or tiny values
   * takes many times its size once the host parses it.
   */
  readonly memoryLimitMb?: number;
}

/** Options of {@link JavaScriptSandbox.load}. */
export interface JavaScriptLoadOptions {
  /**
   * Trusted source of a function expression applied to the script's value, in the same sandbox; what it
   * returns becomes the script's value (what `value` shows and `call` calls into). It lets a caller shape
   * the untrusted value, for example to batch several of its functions into one call.
   */
  readonly wrapper?: string;
}

/**
 * A script loaded into a {@link JavaScriptSandbox}: its value, and the functions on it to call.
 * @example
 * const sandbox = await JavaScriptSandbox.create();
 * const script = await sandbox.load("({ unit: 'mg', double: (x) => 2 * x })");
 * script.value; // { unit: "mg" }
 * await script.call("double", [21]); // 42
 * sandbox.close();
 */
export interface JavaScriptScript {
  /**
   * The script's value (its last expression statement) as `JSON.stringify` renders it: functions and
   * `undefined` members are left out, and `undefined` when the value itself is a function or undefined.
   */
  readonly value: JsonValue | undefined;
  /**
   * Calls the function `name` of the script's value (with the value as `this`) on JSON arguments and
   * returns its result as `JSON.stringify` renders it (`undefined` for `undefined`; `NaN` becomes null).
   * @throws {JavaScriptExecutionError} the function threw, is missing, returned a Promise or a value JSON
   * cannot render (a BigInt, a cycle).
   * @throws {SandboxTimeoutError} the call ran longer than `timeoutMs`.
   * @throws {SandboxMemoryError} the sandbox's heap would pass `memoryLimitMb`, or the result is more
   * than 16 MB of JSON.
   * @throws {SandboxError} the engine failed, the script was disposed or the sandbox closed.
   */
  call(name: string, args?: readonly JsonValue[]): Promise<JsonValue | undefined>;
  /** Frees the script's value in the sandbox; later calls fail. */
  dispose(): void;
}

const DEFAULTS: EngineLimits = { timeoutMs: 1000, memoryLimitMb: 64 };
/** How long a new thread waits for its predecessor to end before starting anyway. */
const TERMINATION_WAIT_MS = 5000;

/** Where a script's value lives: a thread, the serial of the engine in it, the id the engine keeps it under. */
interface Slot {
  readonly thread: QuickJsThread;
  readonly engine: number;
  readonly id: number;
}

/**
 * Runs untrusted JavaScript in QuickJS compiled to WebAssembly, on a worker thread of its own. The sandboxed
 * code reaches only the language's built-ins: no file system, network, process, environment, timers,
 * modules (`import` fails) or host object, and values cross the boundary only as JSON. The built-ins and
 * `globalThis` are frozen, and each script is evaluated in a scope of its own, so scripts sharing a sandbox
 * cannot alter one another.
 *
 * Every `load` and `call` runs under a time limit, a memory limit for the whole heap and a stack limit.
 * QuickJS's interrupt stops code at the time limit; a native call that never reaches its check is stopped
 * by terminating the thread, so the host's event loop is never blocked. After a time or memory limit is
 * hit (or the engine itself fails) the engine is discarded, with its thread when needed, and the next call
 * starts a fresh one, in which each script is evaluated again on its next call. Calls are queued and never
 * overlap. An idle sandbox does not keep the process alive; `close` ends its thread.
 * @example
 * const sandbox = await JavaScriptSandbox.create({ timeoutMs: 200 });
 * const script = await sandbox.load("const add = (a, b) => a + b; ({ add, spin() { for (;;); } })");
 * await script.call("add", [2, 3]); // 5
 * const stopped = await script.call("spin").catch((error) => error.name);
 * stopped; // "SandboxTimeoutError"
 * await script.call("add", [1, 1]); // 2
 * sandbox.close();
 */
export class JavaScriptSandbox {
  readonly #limits: EngineLimits;
  #closed = false;
  /** The current thread (starting, running or dead); null before the first need and once closed. */
  #thread: Promise<QuickJsThread> | null = null;
  /** The tail of the queue of operations: each runs after the previous one settled. */
  #queue: Promise<unknown> = Promise.resolve();
  readonly #finalizer = new FinalizationRegistry<Slot>((slot) => slot.thread.release(slot.engine, slot.id));

  private constructor(limits: EngineLimits) {
    this.#limits = limits;
  }

  /**
   * Creates a sandbox with its own worker thread and QuickJS WebAssembly module, so that a failure of one
   * sandbox's engine cannot affect another.
   * @throws {SandboxError} a limit is not a positive number, or the thread could not start.
   */
  static async create(options: JavaScriptSandboxOptions = {}): Promise<JavaScriptSandbox> {
    const limits: EngineLimits = {
      timeoutMs: options.timeoutMs ?? DEFAULTS.timeoutMs,
      memoryLimitMb: options.memoryLimitMb ?? DEFAULTS.memoryLimitMb,
    };
    for (const [name, value] of Object.entries(limits)) {
      if (!(Number.isFinite(value) && value > 0)) {
        throw new SandboxError(`${name} must be a positive number, found ${String(value)}`);
      }
    }
    const sandbox = new JavaScriptSandbox(limits);
    try {
      await sandbox.#use((thread) => thread.request({ op: "start" }));
    } catch (error) {
      sandbox.close();
      throw error;
    }
    return sandbox;
  }

  /**
   * Evaluates `source` as a script, in strict mode and in a scope of its own; its value is its last
   * expression statement (`({ verify(a) { ... } })`, or `function f() {}; ({ f })`). Top-level `import`
   * and `export` are syntax errors, and `import()` fails.
   * @throws {JavaScriptExecutionError} the script has a syntax error or threw.
   * @throws {SandboxTimeoutError} evaluating it ran longer than `timeoutMs`.
   * @throws {SandboxMemoryError} the sandbox's heap would pass `memoryLimitMb`.
   * @throws {SandboxError} the engine failed or the sandbox is closed.
   */
  async load(source: string, options: JavaScriptLoadOptions = {}): Promise<JavaScriptScript> {
    const { wrapper } = options;
    const evaluate = async (thread: QuickJsThread) => {
      const reply = await thread.request({ op: "load", source, wrapper });
      return { slot: { thread, engine: reply.engine, id: reply.id as number }, json: reply.json };
    };
    const { slot, json } = await this.#use(evaluate);
    const value = json === undefined ? undefined : (JSON.parse(json) as JsonValue);
    return new LoadedScript(value, slot, {
      use: (operation) => this.#use(operation),
      reload: async (thread) => (await evaluate(thread)).slot,
      track: (target, current, previous) => {
        if (previous) this.#finalizer.unregister(previous);
        if (current) this.#finalizer.register(target, current, current);
      },
    });
  }

  /** Ends the worker thread. Later calls, and a call still running, fail with {@link SandboxError}. */
  close(): void {
    this.#closed = true;
    const thread = this.#thread;
    this.#thread = null;
    thread?.then(
      (current) => current.terminate(new SandboxError("the JavaScript sandbox is closed")),
      () => undefined,
    );
  }

  /** Queues `operation` to run on a usable thread once every operation queued before it has settled. */
  #use<T>(operation: (thread: QuickJsThread) => Promise<T>): Promise<T> {
    const run = this.#queue.then(async () => operation(await this.#live()));
    this.#queue = run.catch(() => undefined);
    return run;
  }

  /** The current thread, or a new one when there is none or it died (after the dead one has ended). */
  async #live(): Promise<QuickJsThread> {
    if (this.#closed) throw new SandboxError("the JavaScript sandbox is closed");
    const current = this.#thread === null ? null : await this.#thread.catch(() => null);
    if (current?.usable) return current;
    const next = this.#spawnAfter(current);
    this.#thread = next;
    next.catch(() => undefined);
    return next;
  }

  /** Starts a thread once `previous` (if any) has ended, so that stopped threads cannot pile up. */
  async #spawnAfter(previous: QuickJsThread | null): Promise<QuickJsThread> {
    if (previous) {
      let timer: NodeJS.Timeout | undefined;
      const waited = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, TERMINATION_WAIT_MS).unref();
      });
      await Promise.race([previous.terminate(new SandboxError("the QuickJS worker was replaced")), waited]);
      clearTimeout(timer);
    }
    if (this.#closed) throw new SandboxError("the JavaScript sandbox is closed");
    return QuickJsThread.spawn(this.#limits);
  }
}

/** What a {@link LoadedScript} needs from its sandbox. */
interface ScriptHost {
  use<T>(operation: (thread: QuickJsThread) => Promise<T>): Promise<T>;
  /** Evaluates the script again on a thread whose engine does not hold it. */
  reload(thread: QuickJsThread): Promise<Slot>;
  /** Keeps the finalizer in step: frees `current` when the script is garbage-collected, forgets `previous`. */
  track(target: object, current: Slot | null, previous: Slot | null): void;
}

class LoadedScript implements JavaScriptScript {
  readonly value: JsonValue | undefined;
  readonly #host: ScriptHost;
  #slot: Slot | null;

  constructor(value: JsonValue | undefined, slot: Slot, host: ScriptHost) {
    this.value = value;
    this.#slot = slot;
    this.#host = host;
    host.track(this, slot, null);
  }

  call(name: string, args: readonly JsonValue[] = []): Promise<JsonValue | undefined> {
    const argsJson = JSON.stringify(args);
    return this.#host.use(async (thread) => {
      const slot = await this.#slotOn(thread);
      const { json } = await thread.request({ op: "call", id: slot.id, name, argsJson });
      return json === undefined ? undefined : (JSON.parse(json) as JsonValue);
    });
  }

  dispose(): void {
    const slot = this.#slot;
    if (slot === null) return;
    this.#slot = null;
    this.#host.track(this, null, slot);
    slot.thread.release(slot.engine, slot.id);
  }

  /** The script's slot in the thread's live engine, evaluating the script there first when needed. */
  async #slotOn(thread: QuickJsThread): Promise<Slot> {
    const slot = this.#slot;
    if (slot === null) throw new SandboxError("the script was disposed");
    if (slot.thread === thread && slot.engine === thread.engine) return slot;
    const fresh = await this.#host.reload(thread);
    if (this.#slot !== slot) {
      // Disposed while it was evaluated again.
      thread.release(fresh.engine, fresh.id);
      throw new SandboxError("the script was disposed");
    }
    this.#slot = fresh;
    this.#host.track(this, fresh, slot);
    return fresh;
  }
}
