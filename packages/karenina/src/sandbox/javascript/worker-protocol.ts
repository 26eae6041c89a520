import { SandboxError, SandboxMemoryError, SandboxTimeoutError } from "../errors.js";
import { JavaScriptExecutionError } from "./errors.js";
import type { EngineLimits } from "./quickjs-engine.js";

/** What the QuickJS worker thread is started with. */
export interface QuickJsWorkerData {
  readonly limits: EngineLimits;
  /**
   * One float, shared with the host: the time (`performance.timeOrigin + performance.now()`, ms) at which the
   * worker started its current engine operation, or 0 while it runs none. The host's watchdog reads it, so
   * that loading the WebAssembly module or waiting in the message queue does not count against the limit.
   * Read and written without `Atomics` (which take only integers): an aligned 8-byte access is not torn on
   * the platforms Node runs on, and a stale read only delays the watchdog by one look.
   */
  readonly busySince: SharedArrayBuffer;
  /** QuickJS's compiled `WebAssembly.Module`, shared by every thread of the process. */
  readonly wasmModule: object;
}

/** One request to the worker. Only `release` gets no reply. */
export type WorkerRequest =
  | { readonly op: "start" }
  | { readonly op: "load"; readonly source: string; readonly wrapper: string | undefined }
  | { readonly op: "call"; readonly id: number; readonly name: string; readonly argsJson: string }
  | { readonly op: "release"; readonly engine: number; readonly id: number };

/** A typed sandbox error as it crosses the thread boundary; the host rebuilds the class. */
export type WireError =
  | { readonly kind: "timeout"; readonly timeoutMs: number }
  | { readonly kind: "memory"; readonly limitMb: number; readonly detail: string }
  | {
      readonly kind: "execution";
      readonly jsName: string;
      readonly jsMessage: string;
      readonly jsStack: string;
    }
  | { readonly kind: "sandbox"; readonly message: string };

/** The worker's answer to a `start`, `load` or `call`. */
export interface WorkerReply {
  /** The serial of the engine the request ran on (engines of one worker are numbered from 1), 0 if none started. */
  readonly engine: number;
  /** The engine was discarded after the request (a limit was hit): the next request starts a fresh one. */
  readonly retired: boolean;
  /** The WebAssembly module can host no further engine: the host must replace the whole worker. */
  readonly moduleLost: boolean;
  /** For `load`: the id the script's value is kept under in that engine. */
  readonly id?: number;
  /** The result as JSON text; absent for `undefined`. */
  readonly json?: string;
  readonly error?: WireError;
}

/** A typed error of the engine, as data. */
export function toWire(error: unknown): WireError {
  if (error instanceof SandboxTimeoutError) return { kind: "timeout", timeoutMs: error.timeoutMs };
  if (error instanceof SandboxMemoryError)
    return { kind: "memory", limitMb: error.limitMb, detail: error.detail };
  if (error instanceof JavaScriptExecutionError) {
    return { kind: "execution", jsName: error.jsName, jsMessage: error.jsMessage, jsStack: error.jsStack };
  }
  if (error instanceof SandboxError) return { kind: "sandbox", message: error.message };
  const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return { kind: "sandbox", message: `the QuickJS worker failed: ${detail}` };
}

/** The host's error for a {@link WireError}. */
export function fromWire(error: WireError): SandboxError {
  switch (error.kind) {
    case "timeout":
      return new SandboxTimeoutError(error.timeoutMs);
    case "memory":
      return new SandboxMemoryError(error.limitMb, error.detail);
    case "execution":
      return new JavaScriptExecutionError(error.jsName, error.jsMessage, error.jsStack);
    case "sandbox":
      return new SandboxError(error.message);
  }
}

/** The clock both threads read for the watchdog: wall-clock milliseconds, monotonic within a thread. */
export function sharedClock(): number {
  return performance.timeOrigin + performance.now();
}
