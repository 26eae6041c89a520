/**
 * Messages between the host and the Pyodide worker process, over its IPC channel (V8 serialization). Requests
 * and answers travel as JSON text; the only other payload is the interpreter snapshot's bytes. Nothing but
 * data crosses the process boundary.
 */

/** Host → worker, first message: what the worker starts from. */
export interface WorkerData {
  /** Pyodide's own files (wasm, standard library), a directory path ending in a separator. */
  readonly pyodideDirectory: string;
  /**
   * The `file:` URL of Pyodide's ES module, which the worker imports by this URL: resolving the package name
   * would make Node walk `node_modules` (and follow its symlinks), outside what the worker may read.
   */
  readonly pyodideModule: string;
  /** How far the WebAssembly memory may grow past its size after startup or the latest trusted setup. */
  readonly memoryLimitBytes: number;
  /**
   * Memory image of a freshly started interpreter to start from (about 0.5 s instead of 2.5 s); `null` asks
   * the worker to make one, before running anything, and send it back in a {@link SnapshotMessage}.
   */
  readonly snapshot: Uint8Array | null;
  /**
   * The Python the worker runs before anything else (`karenina_sandbox.py`, see `python-source.ts`), read by the
   * host: the worker may not read the library's files beyond its own modules.
   */
  readonly sandboxSource: string;
}

/** The Python operations the worker serves; see `python-source.ts` and `karenina_sandbox.py`. */
export type Operation = "run" | "setup" | "check";

/** Host → worker: one request, `request` being the JSON text the Python handler reads. */
export interface WorkerRequest {
  readonly id: number;
  readonly op: Operation;
  readonly request: string;
  /**
   * Restore the interpreter's memory to its state at the end of the latest trusted step (start-up, or the
   * latest `setup`) before serving the request, so that nothing earlier untrusted code did survives.
   */
  readonly fresh?: boolean;
}

/** Worker → host, once, after Pyodide has started and the sandbox is locked down. */
export interface ReadyMessage {
  readonly type: "ready";
}

/** Worker → host, once, when asked for a snapshot: taken before the lockdown and before any request. */
export interface SnapshotMessage {
  readonly type: "snapshot";
  readonly snapshot: Uint8Array;
}

/** Worker → host, once, if Pyodide could not start. */
export interface StartFailedMessage {
  readonly type: "start-failed";
  readonly message: string;
}

/** Worker → host: the Python handler answered (`response` is its JSON text). */
export interface DoneMessage {
  readonly type: "done";
  readonly id: number;
  readonly response: string;
  /** Whether the memory limit refused a heap growth during the request. */
  readonly memoryRefused: boolean;
}

/** Worker → host: the interpreter failed below Python (a fatal Pyodide error); the worker is unusable. */
export interface CrashedMessage {
  readonly type: "crashed";
  readonly id: number;
  readonly message: string;
  readonly memoryRefused: boolean;
}

export type WorkerMessage =
  | ReadyMessage
  | SnapshotMessage
  | StartFailedMessage
  | DoneMessage
  | CrashedMessage;

/** The JSON the Python handler answers with. */
export type PythonResponse =
  | { readonly ok: true; readonly value: unknown }
  | {
      readonly ok: false;
      readonly type: string;
      readonly message: string;
      readonly traceback: string;
    };
