/**
 * Entry point of the child process that hosts one Pyodide interpreter. Started by `WorkerConnection` (see
 * `spawnSandboxProcess`); not part of the public API. It waits for its {@link WorkerData} on the IPC channel,
 * then serves requests until the channel closes. Order matters: the memory guard and the import gate go in
 * before Pyodide is instantiated, the Python lockdown runs before any request, the realm lockdown right after
 * it.
 */
import { constants as fsConstants } from "node:fs";
import type { PyodideAPI } from "pyodide";
import { installImportGate } from "./import-gate.js";
import { installMemoryGuard, type MemoryGuard } from "./memory-guard.js";
import type { WorkerData, WorkerMessage, WorkerRequest } from "./protocol.js";
import { PYTHON_SANDBOX_SOURCE } from "./python-source.js";
import { lockDownRealm } from "./realm-lockdown.js";

type Handler = (request: string) => unknown;
/** A Python function seen from JavaScript (a PyProxy): callable, and releasable with `destroy()`. */
type PyCallable<T> = (() => T) & { destroy(): void };

const discard = (): void => undefined;

/** The real `process`, kept here: the realm lockdown replaces the global one by a stub. */
const host = process;

async function start(data: WorkerData): Promise<void> {
  const memory = installMemoryGuard();
  installImportGate();
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
  host.on("message", (message: WorkerRequest) => post(serve(message, handler, memory, pyodide, allowance)));
  post({ type: "ready" });
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

/**
 * The snapshot as Pyodide reads it, through 32-bit views: IPC delivers bytes as a view into its message
 * buffer, at any offset.
 */
function aligned(bytes: Uint8Array): Uint8Array {
  return bytes.byteOffset % 8 === 0 ? bytes : bytes.slice();
}

/** The current size of Pyodide's WebAssembly memory (it only ever grows). */
function heapSize(pyodide: PyodideAPI): number {
  return (pyodide as unknown as { _module: { HEAPU8: Uint8Array } })._module.HEAPU8.byteLength;
}

function post(message: WorkerMessage): void {
  host.send?.(message);
}

host.once("message", (data: WorkerData) => {
  start(data).catch((error: unknown) => post({ type: "start-failed", message: String(error) }));
});
// The host is gone (or closed the sandbox): nothing is left to serve.
host.once("disconnect", () => host.exit());
