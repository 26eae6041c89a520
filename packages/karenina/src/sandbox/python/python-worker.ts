/**
 * Entry point of the worker thread that hosts one Pyodide interpreter. Started by `WorkerConnection`; not
 * part of the public API. Order matters: the memory guard and the import gate go in before Pyodide is
 * instantiated, the Python lockdown runs before any request, the realm lockdown right after it.
 */
import { createRequire } from "node:module";
import { dirname, sep } from "node:path";
import { parentPort, workerData } from "node:worker_threads";
import { loadPyodide, type PyodideAPI } from "pyodide";
import { installImportGate } from "./import-gate.js";
import { installMemoryGuard, type MemoryGuard } from "./memory-guard.js";
import type { WorkerData, WorkerMessage, WorkerRequest } from "./protocol.js";
import { PYTHON_SANDBOX_SOURCE } from "./python-source.js";
import { lockDownRealm } from "./realm-lockdown.js";

type Handler = (request: string) => unknown;
/** A Python function seen from JavaScript (a PyProxy): callable, and releasable with `destroy()`. */
type PyCallable<T> = (() => T) & { destroy(): void };
type Port = NonNullable<typeof parentPort>;

const discard = (): void => undefined;

async function start(port: Port, data: WorkerData): Promise<void> {
  const memory = installMemoryGuard();
  installImportGate();
  // Emscripten takes argv[1] (a host path) as the program name: sys.executable, os.environ["_"], ...
  process.argv.splice(1);
  const pyodide = await loadPyodide({
    indexURL: pyodideDirectory(),
    env: {},
    args: [],
    jsglobals: Object.create(null),
    stdin: () => null,
    stdout: discard,
    stderr: discard,
    ...(data.snapshot ? { _loadSnapshot: data.snapshot } : { _makeSnapshot: true }),
  });
  if (!data.snapshot) {
    const snapshot = pyodide.makeMemorySnapshot();
    port.postMessage({ type: "snapshot", snapshot } satisfies WorkerMessage, [
      snapshot.buffer as ArrayBuffer,
    ]);
  }
  pyodide.runPython(PYTHON_SANDBOX_SOURCE, { filename: "<karenina-sandbox>" });
  const lockDownPython = pyodide.globals.get("_karenina_lock_down") as PyCallable<void>;
  const makeHandler = pyodide.globals.get("_karenina_handler") as PyCallable<Handler>;
  lockDownPython();
  const handler = makeHandler();
  lockDownPython.destroy();
  makeHandler.destroy();
  lockDownRealm();
  const allowance = data.memoryLimitBytes;
  memory.setCeiling(heapSize(pyodide) + allowance);
  port.on("message", (message: WorkerRequest) =>
    post(port, serve(message, handler, memory, pyodide, allowance)),
  );
  post(port, { type: "ready" });
}

/**
 * Runs one request. A trusted `setup` runs without the ceiling, which it then moves to the heap's new size
 * plus the allowance: the code's allowance counts from the end of the latest trusted step.
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
  if (op === "setup") memory.setCeiling(Number.POSITIVE_INFINITY);
  try {
    const response = handler(request);
    if (typeof response !== "string") throw new TypeError("the Python handler did not return text");
    return { type: "done", id, response, memoryRefused: memory.takeRefused() };
  } catch (error) {
    return { type: "crashed", id, message: String(error), memoryRefused: memory.takeRefused() };
  } finally {
    if (op === "setup") memory.setCeiling(heapSize(pyodide) + allowance);
  }
}

/** Pyodide's own files (wasm, stdlib zip), next to its package.json; found without any network. */
function pyodideDirectory(): string {
  return dirname(createRequire(import.meta.url).resolve("pyodide/package.json")) + sep;
}

/** The current size of Pyodide's WebAssembly memory (it only ever grows). */
function heapSize(pyodide: PyodideAPI): number {
  return (pyodide as unknown as { _module: { HEAPU8: Uint8Array } })._module.HEAPU8.byteLength;
}

function post(port: Port, message: WorkerMessage): void {
  port.postMessage(message);
}

if (parentPort) {
  const port = parentPort;
  start(port, workerData as WorkerData).catch((error: unknown) =>
    post(port, { type: "start-failed", message: String(error) }),
  );
}
