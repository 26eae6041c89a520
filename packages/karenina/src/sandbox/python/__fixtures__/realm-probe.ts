/**
 * Worker used by realm-lockdown.test.ts (written for this project): applies the realm lockdown, then tries
 * the ways a JS object would lead out of the realm, and reports which were blocked.
 */
import { parentPort } from "node:worker_threads";
import { lockDownRealm } from "../realm-lockdown.js";

type Probe = () => unknown;

const plainObject: object = {};
const probes: Record<string, Probe> = {
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
  "process.binding": () => (Reflect.get(globalThis, "process") as unknown as { binding(name: string): unknown }).binding("fs"),
  "process.env": () => Object.keys((Reflect.get(globalThis, "process") as NodeJS.Process).env).length || undefined,
  require: () => (Reflect.get(globalThis, "require") as NodeJS.Require)("node:fs"),
  fetch: () => (Reflect.get(globalThis, "fetch") as typeof fetch)("http://127.0.0.1:9/"),
  BroadcastChannel: () => new (Reflect.get(globalThis, "BroadcastChannel") as typeof BroadcastChannel)("x"),
};

lockDownRealm();
const blocked: Record<string, boolean> = {};
for (const [name, probe] of Object.entries(probes)) {
  try {
    blocked[name] = probe() === undefined;
  } catch {
    blocked[name] = true;
  }
}
const stillWorks = plainObject instanceof Object && (() => 1) instanceof Function && [1, 2].map((n) => n * 2)[1] === 4;
parentPort?.postMessage({ blocked, stillWorks });
