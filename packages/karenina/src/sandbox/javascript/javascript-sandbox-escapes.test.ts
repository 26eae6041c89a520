import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { JavaScriptExecutionError } from "./errors.js";
import { JavaScriptSandbox } from "./javascript-sandbox.js";

/** Every global a fresh sandbox has: the language's built-ins, nothing from the host. */
const STANDARD_GLOBALS = new Set(
  (
    "Error EvalError RangeError ReferenceError SyntaxError TypeError URIError InternalError AggregateError " +
    "Array Object Function Iterator parseInt parseFloat isNaN isFinite decodeURI decodeURIComponent encodeURI " +
    "encodeURIComponent escape unescape Infinity NaN undefined eval Number Boolean String Math Reflect Symbol " +
    "globalThis BigInt Date RegExp JSON Proxy Map Set WeakMap WeakSet ArrayBuffer SharedArrayBuffer " +
    "Uint8ClampedArray Int8Array Uint8Array Int16Array Uint16Array Int32Array Uint32Array BigInt64Array " +
    "BigUint64Array Float16Array Float32Array Float64Array DataView Promise WeakRef FinalizationRegistry"
  ).split(" "),
);

let sandbox: JavaScriptSandbox;
beforeAll(async () => {
  sandbox = await JavaScriptSandbox.create({ timeoutMs: 300 });
});
afterAll(() => sandbox.close());

/** Runs `body` as a function of a fresh script and returns its result, or the error's message. */
async function attempt(body: string): Promise<unknown> {
  const script = await sandbox.load(`({ run() { ${body} } })`);
  try {
    return await script.call("run");
  } catch (error) {
    return (error as Error).message;
  } finally {
    script.dispose();
  }
}

describe("sandboxed JavaScript reaches nothing of the host", () => {
  test.each([
    "process",
    "require",
    "module",
    "fetch",
    "XMLHttpRequest",
    "WebSocket",
    "std",
    "os",
    "console",
    "setTimeout",
    "setInterval",
    "queueMicrotask",
    "Buffer",
    "Deno",
    "Bun",
  ])("there is no global %s", async (name) => {
    expect(await attempt(`return typeof globalThis[${JSON.stringify(name)}];`)).toBe("undefined");
  });

  test("reading process.env is a ReferenceError", async () => {
    expect(await attempt("return process.env.HOME;")).toBe("ReferenceError: 'process' is not defined");
  });

  test("Function('return this')() gives the sandbox's own global, holding only the language's built-ins", async () => {
    const names = (await attempt(
      "const g = Function('return this')(); return g === globalThis ? Object.getOwnPropertyNames(g) : null;",
    )) as string[];
    expect(new Set(names)).toEqual(STANDARD_GLOBALS);
  });

  test("the Function constructor reached through any function compiles code with the same empty global", async () => {
    expect(await attempt("return (() => 0).constructor('return typeof process + typeof require')();")).toBe(
      "undefinedundefined",
    );
  });

  test("a static import is a syntax error", async () => {
    const error = await sandbox.load('import fs from "fs"; ({})').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JavaScriptExecutionError);
    expect((error as JavaScriptExecutionError).jsName).toBe("SyntaxError");
  });

  test.each(["fs", "std", "os", "node:child_process"])("import(%j) gives nothing back", async (name) => {
    expect(await attempt(`return import(${JSON.stringify(name)});`)).toBe(
      "TypeError: run returned a Promise: sandboxed functions must be synchronous",
    );
  });

  test("the built-ins are frozen, so a script cannot change them for others", async () => {
    expect(await attempt("Array.prototype.includes = () => true; return 1;")).toMatch(/^TypeError/);
    expect(await attempt("Object.prototype.polluted = 1; return 1;")).toMatch(/^TypeError/);
    expect(await attempt("JSON.parse = () => 0; return 1;")).toMatch(/^TypeError/);
    expect(await attempt("return [1, 2].includes(3) || ({}).polluted !== undefined;")).toBe(false);
  });

  test("a script cannot publish globals for other scripts", async () => {
    expect(await attempt("globalThis.leak = 1; return 1;")).toMatch(/^TypeError/);
    expect(await attempt("return typeof leak;")).toBe("undefined");
  });

  test("stack-trace hooks of V8 do not exist", async () => {
    expect(await attempt("return [typeof Error.captureStackTrace, typeof Error.prepareStackTrace];")).toEqual(
      ["undefined", "undefined"],
    );
  });

  test("the caller chain is closed to strict code", async () => {
    expect(await attempt("return arguments.callee;")).toMatch(/^TypeError/);
  });
});
