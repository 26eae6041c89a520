import {
  newQuickJSWASMModuleFromVariant,
  newVariant,
  type QuickJSContext,
  type QuickJSHandle,
  type QuickJSRuntime,
  type QuickJSWASMModule,
  RELEASE_SYNC,
} from "quickjs-emscripten";
import { SandboxError, SandboxMemoryError, SandboxTimeoutError } from "../errors.js";
import { BRIDGE_SOURCE, EVALUATOR_SOURCE } from "./bootstrap.js";
import { JavaScriptExecutionError } from "./errors.js";

/** The limits every call of an engine runs under. */
export interface EngineLimits {
  readonly timeoutMs: number;
  readonly memoryLimitMb: number;
}

/**
 * The stack QuickJS may use, in bytes: about 700 nested calls of a small function. QuickJS's C frames also
 * live on the native stack of the thread it runs on (about 2.7 times this much), so a larger value lets deep
 * recursion overflow that stack instead of raising a catchable `InternalError: stack overflow` in the
 * sandbox.
 */
const MAX_STACK_BYTES = 128 * 1024;

const PAGE_BYTES = 64 * 1024;
/** The WebAssembly memory QuickJS starts with (its code's data, its stack and the built-ins live there). */
const BASE_MEMORY_BYTES = 16 * 1024 * 1024;
/** The part of `WebAssembly.Memory` used here (the project's `lib` settings do not declare WebAssembly). */
interface WasmMemoryInstance {
  readonly buffer: ArrayBuffer;
}
const WasmMemory = (
  globalThis as unknown as {
    WebAssembly: { Memory: new (descriptor: { initial: number; maximum: number }) => WasmMemoryInstance };
  }
).WebAssembly.Memory;

/** Frames of a sandboxed error's stack that are kept; deeper ones are summarised. */
const MAX_STACK_FRAMES = 20;

/**
 * The longest JSON text a value may cross to the host as, in characters. JSON from shared or tiny values
 * (`[[],[],...]`) becomes many times its size in objects when the host parses it, so the limit bounds the
 * host's memory, not the sandbox's.
 */
export const MAX_RESULT_CHARS = 16 * 1024 * 1024;

/** The size the WebAssembly memory of an engine with this limit can reach: 16 MB + `memoryLimitMb`. */
function memoryCapBytes(memoryLimitMb: number): number {
  return BASE_MEMORY_BYTES + Math.ceil((memoryLimitMb * 1024 * 1024) / PAGE_BYTES) * PAGE_BYTES;
}

/**
 * Instantiates QuickJS's WebAssembly build on a memory of its own capped at {@link memoryCapBytes}, from
 * `compiled` (a `WebAssembly.Module` of that build, whose machine code, once optimised, every thread given
 * it shares) or else from the package's file (about 30 ms). That cap is the memory limit: QuickJS's
 * `setMemoryLimit` counts only a fixed overhead per allocation in this build (its `malloc_usable_size` is
 * unavailable), so it would let the heap grow to the module's 2 GB maximum. Past the cap `malloc` fails and QuickJS throws
 * `InternalError: out of memory`. The memory never shrinks, so a module whose code hit the cap is replaced.
 */
export function loadQuickJsModule(memoryLimitMb: number, compiled?: object): Promise<QuickJSWASMModule> {
  // Typed as the variant's option: under a DOM `lib` (the web app typechecks the library's sources) the
  // variant expects the DOM's full `WebAssembly.Memory`, of which this file declares only a part.
  const wasmMemory = new WasmMemory({
    initial: BASE_MEMORY_BYTES / PAGE_BYTES,
    maximum: memoryCapBytes(memoryLimitMb) / PAGE_BYTES,
  }) as unknown as Parameters<typeof newVariant>[1]["wasmMemory"];
  const wasmModule = compiled as Parameters<typeof newVariant>[1]["wasmModule"];
  return newQuickJSWASMModuleFromVariant(
    newVariant(RELEASE_SYNC, compiled === undefined ? { wasmMemory } : { wasmMemory, wasmModule }),
  );
}

interface Bridge {
  readonly object: QuickJSHandle;
  readonly load: QuickJSHandle;
  readonly render: QuickJSHandle;
  readonly call: QuickJSHandle;
  readonly describe: QuickJSHandle;
}

/** The name the bridge gives a thrown value that is not an `Error` (`throw "text"`). */
const UNCAUGHT_VALUE = "Uncaught";

interface ErrorDescription {
  name: string;
  message: string;
  stack: string;
}

/** What must be replaced after a failure: nothing, the runtime (after a timeout) or the whole module. */
type Damage = "none" | "runtime" | "module";

/**
 * One QuickJS runtime with one locked-down context, holding the values of loaded scripts by id. Every
 * operation is synchronous and bounded by the limits; its failures are typed errors. A timeout leaves the
 * runtime to be replaced (its heap may hold the culprit's half-built state); hitting the memory cap or a
 * failure of the WebAssembly module itself (Node's stack overflowing, an abort) leaves the module to be
 * replaced too. The owner then disposes the engine and starts another.
 */
export class QuickJsEngine {
  readonly #module: QuickJSWASMModule;
  readonly #limits: EngineLimits;
  readonly #runtime: QuickJSRuntime;
  readonly #context: QuickJSContext;
  readonly #bridge: Bridge;
  readonly #values = new Map<number, QuickJSHandle>();
  #nextId = 1;
  #deadline = Number.POSITIVE_INFINITY;
  #interrupted = false;
  #damage: Damage = "none";
  #disposed = false;

  private constructor(module: QuickJSWASMModule, limits: EngineLimits) {
    this.#module = module;
    this.#limits = limits;
    this.#runtime = module.newRuntime();
    this.#runtime.setMaxStackSize(MAX_STACK_BYTES);
    this.#runtime.setInterruptHandler(() => this.#shouldInterrupt());
    this.#context = this.#runtime.newContext();
    this.#bridge = this.#guard(() => this.#installBridge());
  }

  /** Starts an engine on `module`; a module can host another engine once the previous one was disposed. */
  static start(module: QuickJSWASMModule, limits: EngineLimits): QuickJsEngine {
    return new QuickJsEngine(module, limits);
  }

  /** False once a limit was hit or the module failed: the engine must be replaced. */
  get usable(): boolean {
    return this.#damage === "none" && !this.#disposed;
  }

  /**
   * Evaluates `source` in a scope of its own, applies the trusted `wrapper` function to its value when given,
   * and keeps the result under a new id. Returns the id and the value as JSON text (`undefined` when
   * `JSON.stringify` gives nothing, as for a function).
   */
  load(source: string, wrapper: string | undefined): { id: number; json: string | undefined } {
    return this.#guard(() => {
      const context = this.#context;
      const sourceHandle = context.newString(source);
      const wrapperHandle = wrapper === undefined ? context.undefined : context.newString(wrapper);
      const loaded = context.callFunction(
        this.#bridge.load,
        this.#bridge.object,
        sourceHandle,
        wrapperHandle,
      );
      sourceHandle.dispose();
      wrapperHandle.dispose();
      if (loaded.error) throw this.#failure(loaded.error);
      const value = loaded.value;
      const rendered = context.callFunction(this.#bridge.render, this.#bridge.object, value);
      if (rendered.error) {
        value.dispose();
        throw this.#failure(rendered.error);
      }
      let json: string | undefined;
      try {
        json = this.#takeText(rendered.value);
      } catch (error) {
        value.dispose();
        throw error;
      }
      const id = this.#nextId++;
      this.#values.set(id, value);
      return { id, json };
    });
  }

  /** Calls member `name` of the value kept under `id` with JSON arguments; returns the result as JSON text. */
  call(id: number, name: string, argsJson: string): string | undefined {
    return this.#guard(() => {
      const value = this.#values.get(id);
      if (value === undefined)
        throw new SandboxError(`the script was disposed; load it again to call ${name}`);
      const context = this.#context;
      const nameHandle = context.newString(name);
      const argsHandle = context.newString(argsJson);
      const result = context.callFunction(
        this.#bridge.call,
        this.#bridge.object,
        value,
        nameHandle,
        argsHandle,
      );
      nameHandle.dispose();
      argsHandle.dispose();
      if (result.error) throw this.#failure(result.error);
      return this.#takeText(result.value);
    });
  }

  /** Drops the value kept under `id`. Never throws: it also runs from a finalizer. */
  release(id: number): void {
    const value = this.#values.get(id);
    if (value === undefined || !this.usable) return;
    this.#values.delete(id);
    try {
      value.dispose();
    } catch {
      this.#damage = "module";
    }
  }

  /**
   * Frees the context and the runtime. Returns whether the WebAssembly module can host another engine: not
   * after the memory cap was reached, after a module failure, or when freeing itself fails.
   */
  dispose(): boolean {
    if (!this.#disposed) {
      this.#disposed = true;
      if (this.#damage !== "module") this.#free();
    }
    return this.#damage !== "module";
  }

  #free(): void {
    try {
      for (const value of this.#values.values()) value.dispose();
      this.#values.clear();
      for (const handle of Object.values(this.#bridge)) handle.dispose();
      this.#context.dispose();
      this.#runtime.dispose();
    } catch {
      this.#damage = "module";
    }
  }

  #shouldInterrupt(): boolean {
    if (performance.now() <= this.#deadline) return false;
    this.#interrupted = true;
    return true;
  }

  #installBridge(): Bridge {
    const context = this.#context;
    const evaluator = this.#unwrap(context.evalCode(EVALUATOR_SOURCE, "<sandbox>", { strict: true }));
    const factory = this.#unwrap(context.evalCode(BRIDGE_SOURCE, "<sandbox>", { strict: true }));
    const object = this.#unwrap(context.callFunction(factory, context.undefined, evaluator));
    evaluator.dispose();
    factory.dispose();
    return {
      object,
      load: context.getProp(object, "load"),
      render: context.getProp(object, "render"),
      call: context.getProp(object, "call"),
      describe: context.getProp(object, "describe"),
    };
  }

  #unwrap(result: ReturnType<QuickJSContext["evalCode"]>): QuickJSHandle {
    if (result.error) throw this.#failure(result.error);
    return result.value;
  }

  /** Reads a string handle (the bridge's JSON text) or `undefined`, and frees the handle. */
  #takeText(handle: QuickJSHandle): string | undefined {
    const context = this.#context;
    if (context.typeof(handle) !== "string") {
      handle.dispose();
      return undefined;
    }
    const lengthHandle = context.getProp(handle, "length");
    const length = context.getNumber(lengthHandle);
    lengthHandle.dispose();
    if (length > MAX_RESULT_CHARS) {
      handle.dispose();
      throw new SandboxMemoryError(
        this.#limits.memoryLimitMb,
        `its result is ${megabytes(length)} of JSON text, more than the ${megabytes(MAX_RESULT_CHARS)} a value may cross to the host as`,
      );
    }
    const text = context.getString(handle);
    handle.dispose();
    return text;
  }

  /**
   * Runs one operation under the time limit. A typed error passes through; anything else came from the
   * WebAssembly module and leaves it in an unknown state.
   */
  #guard<T>(operation: () => T): T {
    if (!this.usable) throw new SandboxError("the QuickJS engine was retired after a failure");
    this.#interrupted = false;
    this.#deadline = performance.now() + this.#limits.timeoutMs;
    try {
      return operation();
    } catch (error) {
      if (error instanceof SandboxError) throw error;
      this.#damage = "module";
      throw new SandboxError(`the QuickJS engine failed and was discarded: ${hostFailure(error)}`);
    } finally {
      this.#deadline = Number.POSITIVE_INFINITY;
    }
  }

  /** Turns a thrown QuickJS value into a typed error, recording the damage when a limit caused it. */
  #failure(errorHandle: QuickJSHandle): SandboxError {
    const description = this.#interrupted ? null : this.#describe(errorHandle);
    errorHandle.dispose();
    if (this.#interrupted) {
      this.#damage = "runtime";
      return new SandboxTimeoutError(this.#limits.timeoutMs);
    }
    if (description?.message === "out of memory" || (lostToAllocation(description) && this.#memoryGrew())) {
      this.#damage = "module";
      return new SandboxMemoryError(this.#limits.memoryLimitMb, "InternalError: out of memory");
    }
    if (description === null) {
      this.#damage = "runtime";
      return new SandboxError("the sandboxed code failed and its error could not be read");
    }
    return new JavaScriptExecutionError(
      description.name,
      description.message,
      sandboxFrames(description.stack),
    );
  }

  /** The WebAssembly memory grew past its initial size, as it does before any allocation can fail. */
  #memoryGrew(): boolean {
    return (this.#module.getWasmMemory() as WasmMemoryInstance).buffer.byteLength > BASE_MEMORY_BYTES;
  }

  #describe(errorHandle: QuickJSHandle): ErrorDescription | null {
    const described = this.#context.callFunction(this.#bridge.describe, this.#bridge.object, errorHandle);
    if (described.error) {
      described.error.dispose();
      return null;
    }
    const text = this.#takeText(described.value);
    return text === undefined ? null : (JSON.parse(text) as ErrorDescription);
  }
}

/**
 * Whether the error looks like a failed allocation that left no room for an `Error` object: QuickJS then
 * throws `null`, or the error cannot even be described.
 */
function lostToAllocation(description: ErrorDescription | null): boolean {
  return description === null || (description.name === UNCAUGHT_VALUE && description.message === "null");
}

/** The frames of the sandboxed code: the bridge's own frames dropped, at most {@link MAX_STACK_FRAMES}. */
function sandboxFrames(stack: string): string {
  const frames = stack.split("\n").filter((line) => line.trim() !== "");
  const bridgeAt = frames.findIndex((line) => line.includes("(<sandbox>"));
  const own = bridgeAt === -1 ? frames : frames.slice(0, bridgeAt);
  if (own.at(-1)?.trim() === "at apply (native)") own.pop();
  const kept = own.slice(0, MAX_STACK_FRAMES);
  if (own.length > kept.length) kept.push(`    ... ${own.length - kept.length} more frames`);
  return kept.join("\n");
}

function megabytes(chars: number): string {
  return `${Math.round((chars / (1024 * 1024)) * 10) / 10} MB`;
}

function hostFailure(error: unknown): string {
  if (error instanceof RangeError && /call stack/i.test(error.message)) {
    return "the sandboxed code exhausted the host's native stack (deeply nested data or native recursion)";
  }
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
