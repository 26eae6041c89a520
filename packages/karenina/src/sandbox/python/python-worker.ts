/**
 * Entry point of the child process that hosts one Pyodide interpreter. Started by `WorkerConnection` (see
 * `spawnSandboxProcess`); not part of the public API. It waits for its {@link WorkerData} on the IPC channel,
 * then serves requests until the channel closes. Order matters: the memory guard and the import gate go in
 * before Pyodide is instantiated, the Python lockdown runs before any request, then the gate locks (no more
 * JavaScript objects for Python, no file-system writes) and the realm lockdown freezes the realm last, once
 * everything that patches it is in place.
 */
import { constants as fsConstants } from "node:fs";
import type { PyodideAPI } from "pyodide";
import { installImportGate } from "./import-gate.js";
import { installMemoryGuard, type MemoryGuard } from "./memory-guard.js";
import type { WorkerData, WorkerMessage, WorkerRequest } from "./protocol.js";
import { lockDownRealm } from "./realm-lockdown.js";

type Handler = (request: string) => unknown;
/** A Python function seen from JavaScript (a PyProxy): callable, and releasable with `destroy()`. */
type PyCallable<T> = (() => T) & { destroy(): void };

const discard = (): void => undefined;

/** The real `process`, kept here: the realm lockdown replaces the global one by a stub. */
const host = process;

async function start(data: WorkerData): Promise<void> {
  const memory = installMemoryGuard();
  const gate = installImportGate();
  serveConstantsBindingOnly();
  // Emscripten takes argv[1] (a host path) as the program name: sys.executable, os.environ["_"], ...
  host.argv.splice(1);
  const { loadPyodide } = (await import(data.pyodideModule)) as typeof import("pyodide");
  const pyodide = await loadPyodide({
    indexURL: data.pyodideDirectory,
    env: {},
    args: [],
    jsglobals: Object.create(null),
    stdin: () => null,
    stdout: discard,
    stderr: discard,
    ...(data.snapshot ? { _loadSnapshot: aligned(data.snapshot) } : { _makeSnapshot: true }),
  });
  if (!data.snapshot) {
    post({ type: "snapshot", snapshot: pyodide.makeMemorySnapshot() });
  }
  pyodide.runPython(data.sandboxSource, { filename: "<karenina-sandbox>" });
  const lockDownPython = pyodide.globals.get("_karenina_lock_down") as PyCallable<void>;
  const makeHandler = pyodide.globals.get("_karenina_handler") as PyCallable<Handler>;
  lockDownPython();
  const handler = makeHandler();
  lockDownPython.destroy();
  makeHandler.destroy();
  gate.lock();
  expectHandlerAnswers(handler);
  lockDownRealm();
  const allowance = data.memoryLimitBytes;
  memory.setCeiling(heapSize(pyodide) + allowance);
  host.on("message", (message: WorkerRequest) => post(serve(message, handler, memory, pyodide, allowance)));
  post({ type: "ready" });
}

/**
 * Fails the start-up unless the locked-down interpreter answers a request: the import gate, once locked,
 * must leave the handler's own path (a string in, a string out) open.
 */
function expectHandlerAnswers(handler: Handler): void {
  const answer = handler(JSON.stringify({ op: "check", code: "pass" }));
  if (typeof answer !== "string" || (JSON.parse(answer) as { ok?: unknown }).ok !== true) {
    throw new Error(`the locked-down Python sandbox did not answer a request: ${String(answer)}`);
  }
}

/**
 * Pyodide's Node file-system driver reads `process.binding("constants").fs` as it starts, which the permission
 * model refuses; the same numbers are public as `fs.constants`. No other internal binding is served.
 */
function serveConstantsBindingOnly(): void {
  const binding = (name: string): unknown => {
    if (name === "constants") return { fs: fsConstants };
    throw new Error(`process.binding(${JSON.stringify(name)}) is disabled in the sandbox`);
  };
  Object.defineProperty(host, "binding", { value: binding, writable: false, configurable: false });
}

/**
 * Runs one request. A trusted `setup` runs without the ceiling, which it then moves to the heap's new size
 * plus the allowance: the code's allowance counts from the end of the latest trusted step. The memory at the
 * end of that step is kept as the baseline a `fresh` request (and a `setup`, so that no untrusted leftovers
 * become trusted) starts from.
 */
function serve(
  message: WorkerRequest,
  handler: Handler,
  memory: MemoryGuard,
  pyodide: PyodideAPI,
  allowance: number,
): WorkerMessage {
  const { id, op, request } = message;
  memory.takeRefused();
  baseline ??= takeBaseline(pyodide);
  if (message.fresh || op === "setup") restoreBaseline(pyodide, baseline);
  if (op === "setup") memory.setCeiling(Number.POSITIVE_INFINITY);
  try {
    const response = handler(request);
    if (typeof response !== "string") throw new TypeError("the Python handler did not return text");
    const lost = lostFiles(pyodide, baseline);
    if (lost !== null) return { type: "crashed", id, message: lost, memoryRefused: memory.takeRefused() };
    return { type: "done", id, response, memoryRefused: memory.takeRefused() };
  } catch (error) {
    return { type: "crashed", id, message: String(error), memoryRefused: memory.takeRefused() };
  } finally {
    if (op === "setup") {
      memory.setCeiling(heapSize(pyodide) + allowance);
      baseline = takeBaseline(pyodide);
    }
  }
}

/**
 * The interpreter at the end of the latest trusted step: its memory, and the file descriptors open then (the
 * descriptor table lives in JavaScript, outside the memory a restore copies back).
 */
interface Baseline {
  readonly heap: Uint8Array;
  readonly openFiles: ReadonlySet<number>;
}

/** The part of Emscripten's file system the baseline needs. */
interface FileTable {
  readonly streams: ReadonlyArray<object | null | undefined>;
  close(stream: object): void;
}

function fileTable(pyodide: PyodideAPI): FileTable {
  return (pyodide as unknown as { FS: FileTable }).FS;
}

function openDescriptors(pyodide: PyodideAPI): number[] {
  const open: number[] = [];
  fileTable(pyodide).streams.forEach((stream, fd) => {
    if (stream) open.push(fd);
  });
  return open;
}

function takeBaseline(pyodide: PyodideAPI): Baseline {
  return { heap: heapBytes(pyodide).slice(), openFiles: new Set(openDescriptors(pyodide)) };
}

/** The interpreter at its baseline again: memory copied back, and descriptors opened since closed. */
function restoreBaseline(pyodide: PyodideAPI, saved: Baseline): void {
  restoreHeap(pyodide, saved.heap);
  const files = fileTable(pyodide);
  for (const fd of openDescriptors(pyodide)) {
    const stream = files.streams[fd];
    if (!saved.openFiles.has(fd) && stream) files.close(stream);
  }
}

/**
 * Why the baseline can no longer be restored, or null: code closed a descriptor open at the baseline, which a
 * restore cannot reopen. The request then fails as a crash, so the host starts a fresh process instead.
 */
function lostFiles(pyodide: PyodideAPI, saved: Baseline): string | null {
  const open = new Set(openDescriptors(pyodide));
  const lost = [...saved.openFiles].filter((fd) => !open.has(fd));
  return lost.length === 0
    ? null
    : `the code closed file descriptors the interpreter needs (${lost.join(", ")})`;
}

/** The interpreter's memory and open files at the end of the latest trusted step; taken before the first request. */
let baseline: Baseline | null = null;

/**
 * Puts the interpreter back in the state `saved` holds. The whole of Python's state (objects, modules, the
 * allocator's own bookkeeping) lives in the WebAssembly memory, and no JavaScript object is shared with
 * Python, so copying the bytes back is a complete restore; memory grown since is zeroed, as it was when new.
 */
function restoreHeap(pyodide: PyodideAPI, saved: Uint8Array): void {
  const heap = heapBytes(pyodide);
  heap.set(saved);
  if (heap.byteLength > saved.byteLength) heap.fill(0, saved.byteLength);
}

/**
 * The snapshot as Pyodide reads it, through 32-bit views: IPC delivers bytes as a view into its message
 * buffer, at any offset.
 */
function aligned(bytes: Uint8Array): Uint8Array {
  return bytes.byteOffset % 8 === 0 ? bytes : bytes.slice();
}

/** Pyodide's WebAssembly memory, as bytes (a new view after each growth). */
function heapBytes(pyodide: PyodideAPI): Uint8Array {
  return (pyodide as unknown as { _module: { HEAPU8: Uint8Array } })._module.HEAPU8;
}

/** The current size of Pyodide's WebAssembly memory (it only ever grows). */
function heapSize(pyodide: PyodideAPI): number {
  return heapBytes(pyodide).byteLength;
}

function post(message: WorkerMessage): void {
  host.send?.(message);
}

host.once("message", (data: WorkerData) => {
  start(data).catch((error: unknown) => post({ type: "start-failed", message: String(error) }));
});
// The host is gone (or closed the sandbox): nothing is left to serve.
host.once("disconnect", () => host.exit());
