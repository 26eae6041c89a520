import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { SandboxError } from "../errors.js";
import { JavaScriptExecutionError } from "./errors.js";
import { JavaScriptSandbox } from "./javascript-sandbox.js";

let sandbox: JavaScriptSandbox;
beforeAll(async () => {
  sandbox = await JavaScriptSandbox.create();
});
afterAll(() => sandbox.close());

async function thrown(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail("expected the call to fail"),
    (error: unknown) => error,
  );
}

describe("JavaScriptSandbox", () => {
  test("a loaded script's functions are called many times with JSON arguments and JSON results", async () => {
    const script = await sandbox.load(`
      const normalise = (s) => s.trim().toLowerCase();
      ({ same(a, b) { return normalise(a) === normalise(b); }, pair: (x) => ({ x, list: [x, null] }) })`);
    expect(await script.call("same", [" BCL2 ", "bcl2"])).toBe(true);
    expect(await script.call("same", ["BCL2", "TP53"])).toBe(false);
    expect(await script.call("pair", [{ nested: [1, "two"] }])).toEqual({
      x: { nested: [1, "two"] },
      list: [{ nested: [1, "two"] }, null],
    });
  });

  test("a script's value is what JSON.stringify renders: functions and undefined members are left out", async () => {
    const script = await sandbox.load("({ name: 'Answer', n: 2, missing: undefined, f() {} })");
    expect(script.value).toEqual({ name: "Answer", n: 2 });
    expect((await sandbox.load("(function () {})")).value).toBeUndefined();
  });

  test("results follow JSON: undefined stays undefined and NaN becomes null", async () => {
    const script = await sandbox.load("({ nothing() {}, nan: () => NaN, text: () => 'ok' })");
    expect(await script.call("nothing")).toBeUndefined();
    expect(await script.call("nan")).toBeNull();
    expect(await script.call("text")).toBe("ok");
  });

  test("the called function sees the script's value as `this`", async () => {
    const script = await sandbox.load("({ unit: 'mg', label(x) { return x + ' ' + this.unit; } })");
    expect(await script.call("label", [5])).toBe("5 mg");
  });

  test("an error thrown by the script carries its name, message and the script's own frames", async () => {
    const script = await sandbox.load("({\n  check(answer) {\n    return answer.value.trim();\n  },\n})");
    const error = await thrown(script.call("check", [{ value: null }]));
    expect(error).toBeInstanceOf(JavaScriptExecutionError);
    const { jsName, jsMessage, jsStack, message } = error as JavaScriptExecutionError;
    expect(jsName).toBe("TypeError");
    expect(jsMessage).toBe("cannot read property 'trim' of null");
    expect(message).toBe("TypeError: cannot read property 'trim' of null");
    expect(jsStack).toBe("    at check (<input>:3:24)");
  });

  test("a thrown value that is not an Error is reported as it is", async () => {
    const script = await sandbox.load("({ fail() { throw { code: 7 }; }, text() { throw 'no'; } })");
    expect(((await thrown(script.call("fail"))) as Error).message).toBe('Uncaught: {"code":7}');
    expect(((await thrown(script.call("text"))) as Error).message).toBe("Uncaught: no");
  });

  test("a syntax error fails the load with the position of the mistake", async () => {
    const error = await thrown(sandbox.load("({ verify(a) { return a. } })"));
    expect(error).toBeInstanceOf(JavaScriptExecutionError);
    expect((error as JavaScriptExecutionError).jsName).toBe("SyntaxError");
    expect((error as JavaScriptExecutionError).jsStack).toContain("<input>:1:");
  });

  test("calling a missing member, or one that returns a Promise, fails with a clear message", async () => {
    const script = await sandbox.load("({ later: async () => 1, value: 3 })");
    expect(((await thrown(script.call("nope"))) as Error).message).toBe(
      "TypeError: nope is not a function of the script",
    );
    expect(((await thrown(script.call("value"))) as Error).message).toBe(
      "TypeError: value is not a function of the script",
    );
    expect(((await thrown(script.call("later"))) as Error).message).toBe(
      "TypeError: later returned a Promise: sandboxed functions must be synchronous",
    );
  });

  test("top-level declarations stay inside their script", async () => {
    const first = await sandbox.load(
      "const secret = 42; var shared = 1; function helper() { return secret; } ({ helper })",
    );
    const second = await sandbox.load(
      "const secret = 'mine'; ({ look: () => [typeof shared, typeof helper, secret] })",
    );
    expect(await first.call("helper")).toBe(42);
    expect(await second.call("look")).toEqual(["undefined", "undefined", "mine"]);
  });

  test("a disposed script can no longer be called", async () => {
    const script = await sandbox.load("({ one: () => 1 })");
    script.dispose();
    await expect(script.call("one")).rejects.toThrow(SandboxError);
  });

  test("a closed sandbox refuses further work", async () => {
    const own = await JavaScriptSandbox.create();
    const script = await own.load("({ one: () => 1 })");
    own.close();
    await expect(script.call("one")).rejects.toThrow("the JavaScript sandbox is closed");
    await expect(own.load("1")).rejects.toThrow("the JavaScript sandbox is closed");
  });

  test("limits must be positive numbers", async () => {
    await expect(JavaScriptSandbox.create({ timeoutMs: 0 })).rejects.toThrow(
      "timeoutMs must be a positive number, found 0",
    );
  });

  test("many calls in a row all return their result (calls per second are logged)", async () => {
    const script = await sandbox.load("({ same: (a, b) => a.trim().toUpperCase() === b })");
    const started = performance.now();
    let calls = 0;
    while (performance.now() - started < 500) {
      expect(await script.call("same", [" bcl2", "BCL2"])).toBe(true);
      calls++;
    }
    const perSecond = Math.round(calls / ((performance.now() - started) / 1000));
    console.info(`JavaScriptSandbox: ${perSecond} calls/s (one round trip to its worker thread each)`);
  });
});
