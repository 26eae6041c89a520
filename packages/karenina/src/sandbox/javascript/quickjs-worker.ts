/**
 * The worker thread a {@link JavaScriptSandbox} runs QuickJS in (its entry module). It holds one WebAssembly
 * module and, at a time, one engine on it, and answers the host's requests in order. A limit hit by the
 * sandboxed code retires the engine (the next request starts another); a module that can host no further
 * engine is reported, and the host replaces the whole thread. While it runs an engine operation it marks the
 * shared `busySince` slot, by which the host's watchdog terminates the thread when one native call (a
 * `String.prototype.indexOf` on megabytes, a sort) overruns the limit without reaching QuickJS's interrupt
 * check.
 */
import { parentPort, workerData } from "node:worker_threads";
import { SandboxError } from "../errors.js";
import { loadQuickJsModule, QuickJsEngine } from "./quickjs-engine.js";
import {
  type QuickJsWorkerData,
  sharedClock,
  toWire,
  type WorkerReply,
  type WorkerRequest,
} from "./worker-protocol.js";

const { limits, busySince, wasmModule } = workerData as QuickJsWorkerData;
const busy = new Float64Array(busySince);
const port = parentPort;
if (port === null) throw new SandboxError("the QuickJS worker must run in a worker thread");

const module = loadQuickJsModule(limits.memoryLimitMb, wasmModule);
module.catch(() => undefined);
let engine: QuickJsEngine | null = null;
let serial = 0;
let moduleLost = false;

/** Runs `operation` with the shared slot saying since when this thread is busy. */
function whileBusy<T>(operation: () => T): T {
  busy[0] = sharedClock();
  try {
    return operation();
  } finally {
    busy[0] = 0;
  }
}

/** The current engine, or a new one on the module. */
async function ready(): Promise<QuickJsEngine> {
  if (engine?.usable) return engine;
  if (moduleLost) throw new SandboxError("the QuickJS engine was discarded after a failure");
  const loaded = await module.catch((error: unknown) => {
    moduleLost = true;
    throw new SandboxError(`the QuickJS WebAssembly module could not load: ${String(error)}`);
  });
  try {
    engine = whileBusy(() => QuickJsEngine.start(loaded, limits));
  } catch (error) {
    moduleLost = true;
    throw error instanceof SandboxError
      ? error
      : new SandboxError(`the QuickJS engine could not start: ${String(error)}`);
  }
  serial++;
  return engine;
}

/** Runs one request on a usable engine, and retires the engine when the request left it unusable. */
async function run(request: Exclude<WorkerRequest, { op: "release" }>): Promise<WorkerReply> {
  let current: QuickJsEngine;
  try {
    current = await ready();
  } catch (error) {
    return { engine: serial, retired: true, moduleLost, error: toWire(error) };
  }
  let outcome: Pick<WorkerReply, "id" | "json" | "error">;
  try {
    outcome = whileBusy(() => {
      switch (request.op) {
        case "start":
          return {};
        case "load": {
          const { id, json } = current.load(request.source, request.wrapper);
          return json === undefined ? { id } : { id, json };
        }
        case "call": {
          const json = current.call(request.id, request.name, request.argsJson);
          return json === undefined ? {} : { json };
        }
      }
    });
  } catch (error) {
    outcome = { error: toWire(error) };
  }
  const retired = !current.usable;
  if (retired) {
    engine = null;
    if (!current.dispose()) moduleLost = true;
  }
  return { engine: serial, retired, moduleLost, ...outcome };
}

async function handle(request: WorkerRequest): Promise<void> {
  if (request.op === "release") {
    if (engine !== null && request.engine === serial) engine.release(request.id);
    return;
  }
  port?.postMessage(await run(request));
}

let queue: Promise<void> = Promise.resolve();
port.on("message", (request: WorkerRequest) => {
  queue = queue.then(() => handle(request));
});
