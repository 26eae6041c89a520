/**
 * Worker used by realm-lockdown.test.ts (written for this project): applies the realm lockdown, then tries
 * the ways a JS object would lead out of the realm or hook it, and reports which were blocked, and whether
 * ordinary code (the kind Pyodide and Node run) still works.
 */
import { parentPort } from "node:worker_threads";
import { lockDownRealm } from "../realm-lockdown.js";

type Probe = () => unknown;

const plainObject: object = {};
const hook = (): string => "hooked";
const global = globalThis as unknown as Record<string, unknown>;

/** Ways out of the realm: each must throw or give `undefined`. */
const escapes: Record<string, Probe> = {
  "Function via constructor.constructor": () => plainObject.constructor.constructor("return process")(),
  "AsyncFunction via an async function": () =>
    Object.getPrototypeOf(async () => undefined).constructor("return process")(),
  "GeneratorFunction via a generator": () =>
    Object.getPrototypeOf(function* () {
      yield undefined;
    }).constructor("return process")().next(),
  "global Function": () => new (Reflect.get(globalThis, "Function") as FunctionConstructor)("return 1")(),
  "direct eval": () => Reflect.get(globalThis, "eval")("1"),
  "process.getBuiltinModule": () => (Reflect.get(globalThis, "process") as NodeJS.Process).getBuiltinModule("fs"),
  "process.binding": () =>
    (Reflect.get(globalThis, "process") as unknown as { binding(name: string): unknown }).binding("fs"),
  "process.env": () => Object.keys((Reflect.get(globalThis, "process") as NodeJS.Process).env).length || undefined,
  require: () => (Reflect.get(globalThis, "require") as NodeJS.Require)("node:fs"),
  fetch: () => (Reflect.get(globalThis, "fetch") as typeof fetch)("http://127.0.0.1:9/"),
  BroadcastChannel: () => new (Reflect.get(globalThis, "BroadcastChannel") as typeof BroadcastChannel)("x"),
};

/** An accessor whose getter and setter are the hook. */
const accessor = { get: hook, set: hook, configurable: true };
const iteratorPrototype = Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]()));
const typedArrayPrototype = Object.getPrototypeOf(Uint8Array.prototype);
const generatorPrototype = Object.getPrototypeOf(function* () {
  yield undefined;
}).prototype;
const wasm = global.WebAssembly as { instantiate: unknown; Memory: { prototype: object } };

/**
 * Hooks on the realm's intrinsics and globals, installed as code holding a JS object would: each is blocked
 * when it throws or leaves the intrinsic as it was.
 */
const hooks: Record<string, () => boolean> = {
  "accessor on Object.prototype": () => defines(Object.prototype, "karenina", accessor),
  "Function.prototype.apply replaced": () => assigns(Function.prototype, "apply"),
  "Function.prototype.call redefined": () => defines(Function.prototype, "call", { value: hook }),
  "Array.prototype.push replaced": () => assigns(Array.prototype, "push"),
  "Array.prototype[Symbol.iterator] replaced": () => assigns(Array.prototype, Symbol.iterator),
  "iterator prototype's next added": () => assigns(iteratorPrototype, "next"),
  "generator prototype's next replaced": () => assigns(generatorPrototype, "next"),
  "Promise.prototype.then replaced": () => assigns(Promise.prototype, "then"),
  "Object.prototype's prototype set": () => {
    Object.setPrototypeOf(Object.prototype, { karenina: true });
    const took = (plainObject as { karenina?: boolean }).karenina === true;
    if (took) Object.setPrototypeOf(Object.prototype, null);
    return took;
  },
  "Error.prepareStackTrace installed": () => assigns(Error, "prepareStackTrace"),
  "Error.captureStackTrace replaced": () => assigns(Error, "captureStackTrace"),
  "Error.prototype.toString replaced": () => assigns(Error.prototype, "toString"),
  "JSON.parse replaced": () => assigns(JSON, "parse"),
  "Math.random replaced": () => assigns(Math, "random"),
  "Reflect.apply replaced": () => assigns(Reflect, "apply"),
  "Symbol.prototype.toString replaced": () => assigns(Symbol.prototype, "toString"),
  "Map.prototype.set replaced": () => assigns(Map.prototype, "set"),
  "WeakMap.prototype.get replaced": () => assigns(WeakMap.prototype, "get"),
  "RegExp.prototype.exec replaced": () => assigns(RegExp.prototype, "exec"),
  "String.prototype.replace replaced": () => assigns(String.prototype, "replace"),
  "typed arrays' set replaced": () => assigns(typedArrayPrototype, "set"),
  "ArrayBuffer.prototype.slice replaced": () => assigns(ArrayBuffer.prototype, "slice"),
  "DataView.prototype.getUint8 replaced": () => assigns(DataView.prototype, "getUint8"),
  "BigInt.prototype.toString replaced": () => assigns(BigInt.prototype, "toString"),
  "Date.now replaced": () => assigns(Date, "now"),
  "Atomics.wait replaced": () => assigns(Atomics, "wait"),
  "Proxy.revocable replaced": () => assigns(Proxy, "revocable"),
  "WebAssembly.instantiate replaced": () => assigns(wasm, "instantiate"),
  "WebAssembly.Memory.prototype.grow replaced": () => assigns(wasm.Memory.prototype, "grow"),
  "console.log replaced": () => assigns(global.console as object, "log"),
  "structuredClone replaced on globalThis": () => assigns(globalThis, "structuredClone"),
  "new global added": () => {
    Reflect.set(globalThis, "karenina", hook);
    const took = Reflect.get(globalThis, "karenina") === hook;
    if (took) Reflect.deleteProperty(globalThis, "karenina");
    return took;
  },
};

/**
 * Assigns the hook to `target[key]`; whether it took. A hook that took is undone at once, so that the probes
 * after it run in an intact realm (without the lockdown they all take).
 */
function assigns(target: object, key: PropertyKey): boolean {
  return defines(target, key, { value: hook, writable: true, configurable: true }, () => Reflect.set(target, key, hook));
}

/** Defines `key` on `target` (or runs `install`); whether the hook took. Undone as {@link assigns} says. */
function defines(
  target: object,
  key: PropertyKey,
  descriptor: PropertyDescriptor,
  install: () => unknown = () => Object.defineProperty(target, key, descriptor),
): boolean {
  const original = Object.getOwnPropertyDescriptor(target, key);
  install();
  const value = Reflect.get(target, key);
  const took = value === "hooked" || value === hook;
  if (took) {
    if (original) Object.defineProperty(target, key, original);
    else Reflect.deleteProperty(target, key);
  }
  return took;
}

/** What Pyodide and Node do after start-up, which the freeze must leave working. */
function ordinaryCodeWorks(): Record<string, boolean> {
  const error = new TypeError("x");
  error.message = "changed";
  error.name = "Renamed";
  const own: Record<string, unknown> = {};
  own.toString = () => "own";
  own.constructor = Object;
  class Base extends Error {
    constructor() {
      super("base");
      this.name = "Base";
    }
  }
  const bytes = new Uint8Array(new ArrayBuffer(8));
  bytes.set([1, 2, 3]);
  const map = new Map([[1, "a"]]);
  map.set(2, "b");
  return {
    "instances of frozen prototypes": plainObject instanceof Object && (() => 1) instanceof Function,
    "array methods": [1, 2].map((n) => n * 2)[1] === 4 && [...new Set([1, 1, 2])].length === 2,
    "override of inherited properties on instances": `${error.name}: ${error.message}` === "Renamed: changed" &&
      String(own) === "own" && new Base().name === "Base",
    "typed arrays and maps": bytes[2] === 3 && map.get(2) === "b",
    "JSON, regular expressions, strings": JSON.parse(JSON.stringify({ a: /b+/.exec("abbc")?.[0] })).a === "bb",
    "errors with stack traces": typeof new Error("stack").stack === "string",
  };
}

const blocked: Record<string, boolean> = {};
lockDownRealm();
for (const [name, probe] of Object.entries(escapes)) {
  try {
    blocked[name] = probe() === undefined;
  } catch {
    blocked[name] = true;
  }
}
const hooksBlocked: Record<string, boolean> = {};
for (const [name, install] of Object.entries(hooks)) {
  try {
    hooksBlocked[name] = !install();
  } catch {
    hooksBlocked[name] = true;
  }
}
const works = ordinaryCodeWorks();
Promise.resolve(1)
  .then((one) => one + 1)
  .then((two) => {
    works["promises and microtasks"] = two === 2;
    parentPort?.postMessage({ blocked, hooksBlocked, works });
  });
