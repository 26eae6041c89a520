import type { QuickJSWASMModule } from "quickjs-emscripten";
import { SandboxError } from "../errors.js";
import type { JsonValue } from "../python/json-value.js";
import { type EngineLimits, loadQuickJsModule, QuickJsEngine } from "./quickjs-engine.js";

/** Limits of a {@link JavaScriptSandbox}. */
export interface JavaScriptSandboxOptions {
  /**
   * Wall-clock limit of one `load` or `call`, in ms. Default 1000. QuickJS checks it between bytecode
   * instructions and inside regular-expression matching; one long native operation (sorting ten million
   * numbers) can overrun it before it is noticed.
   */
  readonly timeoutMs?: number;
  /**
   * How far, in MB, QuickJS's WebAssembly memory may grow beyond the 16 MB it starts with (of which its
   * stack and built-ins take a few). The whole heap counts: every loaded script and what a call allocates.
   * An allocation past it fails with {@link SandboxMemoryError}. Default 64.
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
   * @throws {SandboxMemoryError} the sandbox's heap would pass `memoryLimitMb`.
   * @throws {SandboxError} the engine failed, the script was disposed or the sandbox closed.
   */
  call(name: string, args?: readonly JsonValue[]): Promise<JsonValue | undefined>;
  /** Frees the script's value in the sandbox; later calls fail. */
  dispose(): void;
}

const DEFAULTS: EngineLimits = { timeoutMs: 1000, memoryLimitMb: 64 };

/** Where a script's value lives: an engine and the id it keeps the value under. */
interface Slot {
  readonly engine: QuickJsEngine;
  readonly id: number;
}

/**
 * Runs untrusted JavaScript in QuickJS compiled to WebAssembly. The sandboxed code reaches only the
 * language's built-ins: no file system, network, process, environment, timers, modules (`import` fails) or
 * host object, and values cross the boundary only as JSON. The built-ins and `globalThis` are frozen, and
 * each script is evaluated in a scope of its own, so scripts sharing a sandbox cannot alter one another.
 *
 * Every `load` and `call` runs under a time limit, a memory limit for the whole heap and a stack limit.
 * After a time or memory limit is hit (or the engine itself fails) the engine is discarded and the next
 * call starts a fresh one, in which each script is evaluated again on its next call. Calls are
 * synchronous inside and never overlap.
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
  /** The module engines start on; null once the sandbox is closed. */
  #module: Promise<QuickJSWASMModule> | null;
  #engine: QuickJsEngine | null = null;
  readonly #finalizer = new FinalizationRegistry<Slot>((slot) => slot.engine.release(slot.id));

  private constructor(limits: EngineLimits, module: Promise<QuickJSWASMModule>) {
    this.#limits = limits;
    this.#module = module;
  }

  /**
   * Creates a sandbox with its own QuickJS WebAssembly module (about 30 ms), so that a failure of one
   * sandbox's engine cannot affect another.
   * @throws {SandboxError} a limit is not a positive number.
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
    const sandbox = new JavaScriptSandbox(limits, loadQuickJsModule(limits.memoryLimitMb));
    await sandbox.#use(() => undefined);
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
    const { slot, json } = await this.#use((engine) => {
      const { id, json } = engine.load(source, wrapper);
      return { slot: { engine, id }, json };
    });
    const value = json === undefined ? undefined : (JSON.parse(json) as JsonValue);
    const script = new LoadedScript(value, slot, {
      use: (operation) => this.#use(operation),
      reload: (engine) => ({ engine, id: engine.load(source, wrapper).id }),
      track: (target, current, previous) => {
        if (previous) this.#finalizer.unregister(previous);
        if (current) this.#finalizer.register(target, current, current);
      },
    });
    return script;
  }

  /** Frees the engine. Later calls fail with {@link SandboxError}. */
  close(): void {
    const engine = this.#engine;
    this.#module = null;
    this.#engine = null;
    engine?.dispose();
  }

  /**
   * Runs `operation` synchronously on a usable engine, starting one when needed, and retires the engine
   * when the operation leaves it unusable (a limit, or a failure of the module).
   */
  async #use<T>(operation: (engine: QuickJsEngine) => T): Promise<T> {
    for (;;) {
      const engine = await this.#ready();
      if (!engine.usable) continue;
      try {
        return operation(engine);
      } finally {
        if (!engine.usable) this.#retire(engine);
      }
    }
  }

  /** The current engine, or a new one on the current module (replaced first when it is unsound). */
  async #ready(): Promise<QuickJsEngine> {
    for (;;) {
      if (this.#module === null) throw new SandboxError("the JavaScript sandbox is closed");
      const current = this.#engine;
      if (current?.usable) return current;
      if (current) this.#retire(current);
      const pending = this.#module;
      const module = await pending.catch((error: unknown) => {
        if (this.#module === pending) this.#module = this.#freshModule();
        throw new SandboxError(`the QuickJS WebAssembly module could not load: ${String(error)}`);
      });
      if (this.#module !== pending || this.#engine !== null) continue;
      try {
        this.#engine = QuickJsEngine.start(module, this.#limits);
      } catch (error) {
        this.#module = this.#freshModule();
        throw error instanceof SandboxError
          ? error
          : new SandboxError(`the QuickJS engine could not start: ${String(error)}`);
      }
      return this.#engine;
    }
  }

  /** Starts loading a module; a failure is reported by the call that awaits it, never as an unhandled rejection. */
  #freshModule(): Promise<QuickJSWASMModule> {
    const module = loadQuickJsModule(this.#limits.memoryLimitMb);
    module.catch(() => undefined);
    return module;
  }

  /** Disposes `engine`; when its module is no longer sound, the next engine gets a fresh module. */
  #retire(engine: QuickJsEngine): void {
    if (this.#engine === engine) this.#engine = null;
    if (!engine.dispose() && this.#module !== null) this.#module = this.#freshModule();
  }
}

/** What a {@link LoadedScript} needs from its sandbox. */
interface ScriptHost {
  use<T>(operation: (engine: QuickJsEngine) => T): Promise<T>;
  /** Evaluates the script again on an engine that does not hold it yet. */
  reload(engine: QuickJsEngine): Slot;
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
    return this.#host.use((engine) => {
      const slot = this.#slotOn(engine);
      const json = engine.call(slot.id, name, argsJson);
      return json === undefined ? undefined : (JSON.parse(json) as JsonValue);
    });
  }

  dispose(): void {
    const slot = this.#slot;
    if (slot === null) return;
    this.#slot = null;
    this.#host.track(this, null, slot);
    slot.engine.release(slot.id);
  }

  #slotOn(engine: QuickJsEngine): Slot {
    const slot = this.#slot;
    if (slot === null) throw new SandboxError("the script was disposed");
    if (slot.engine === engine) return slot;
    const fresh = this.#host.reload(engine);
    this.#slot = fresh;
    this.#host.track(this, fresh, slot);
    return fresh;
  }
}
