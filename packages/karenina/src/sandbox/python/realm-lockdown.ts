/**
 * Second line of defence, run in the Pyodide worker once Pyodide has started: if sandboxed Python ever got
 * hold of a JavaScript object despite the Python-side lockdown, the realm it would reach holds nothing of
 * value. Without a way to compile code from strings and without `process`, `require` or network globals, a
 * JS object leads only to the language's intrinsics, and those are frozen (see `realm-freeze.ts`), so it
 * cannot hook what the worker runs next either.
 */
import { freezeRealm } from "./realm-freeze.js";

const GLOBALS_TO_REMOVE = [
  // CommonJS bindings of an `eval` worker, and the `require` Pyodide installs in Node (it exposes
  // `child_process` and `fs`).
  "require",
  "module",
  "exports",
  "__filename",
  "__dirname",
  // Network and cross-thread channels. The fetch API's data classes go too: nothing here needs them, and
  // the freeze would otherwise load their implementation only to freeze it.
  "fetch",
  "FormData",
  "Headers",
  "Request",
  "Response",
  "WebSocket",
  "EventSource",
  "XMLHttpRequest",
  "BroadcastChannel",
  "importScripts",
] as const;

/**
 * Applies the lockdown to the calling thread's realm, then freezes it. Irreversible; call it only inside the
 * worker, once everything that patches the realm (memory guard, import gate, Pyodide) is in place.
 */
export function lockDownRealm(): void {
  poisonCodeGeneration();
  replaceProcess();
  for (const name of GLOBALS_TO_REMOVE) Reflect.deleteProperty(globalThis, name);
  freezeRealm();
}

/**
 * Makes `Function`, the async/generator function constructors (reachable as `fn.constructor` from any
 * function) and `eval` throw, keeping their `prototype` so `instanceof Function` still works for Pyodide.
 */
function poisonCodeGeneration(): void {
  const constructors = [
    Function,
    Object.getPrototypeOf(async () => undefined).constructor,
    Object.getPrototypeOf(function* () {
      yield undefined;
    }).constructor,
    Object.getPrototypeOf(async function* () {
      yield undefined;
    }).constructor,
  ] as const;
  for (const original of constructors) {
    const poisoned = refusal(original.name);
    Object.defineProperty(poisoned, "prototype", { value: original.prototype });
    Object.defineProperty(original.prototype, "constructor", {
      value: poisoned,
      writable: false,
      configurable: false,
    });
    if (original === Function) freezeGlobal("Function", poisoned);
  }
  freezeGlobal("eval", refusal("eval"));
}

/**
 * Swaps the worker's `process` (its `getBuiltinModule`, `binding` and `dlopen` reach the host) for a stub
 * holding only what Pyodide's runtime reads after startup.
 */
function replaceProcess(): void {
  const stub = {
    argv: [],
    env: {},
    platform: "linux",
    version: process.version,
    versions: { node: process.versions.node },
    exitCode: undefined as number | undefined,
    getuid: () => 0,
    umask: () => 0o022,
  };
  freezeGlobal("process", stub);
}

function refusal(name: string): () => never {
  const refuse = (): never => {
    throw new EvalError(`${name} is disabled in the sandbox`);
  };
  Object.defineProperty(refuse, "name", { value: name });
  return refuse;
}

function freezeGlobal(name: string, value: unknown): void {
  Object.defineProperty(globalThis, name, { value, writable: false, configurable: false });
}
