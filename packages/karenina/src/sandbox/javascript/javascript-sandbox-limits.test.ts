import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { SandboxError, SandboxMemoryError, SandboxTimeoutError } from "../errors.js";
import { JavaScriptExecutionError } from "./errors.js";
import { JavaScriptSandbox, type JavaScriptScript } from "./javascript-sandbox.js";

const HOSTILE = `
let calls = 0;
({
  count: () => ++calls,
  spin() { for (;;); },
  swallow() { for (;;) { try { for (;;); } catch (e) {} } },
  backtrack: () => /^(a+)+$/.test("a".repeat(40) + "!"),
  huge: () => new Uint8Array(2 * 1024 ** 3).length,
  grow() { const kept = []; for (;;) kept.push(new Array(1e5).fill(1.5)); },
  buffers() { const kept = []; for (;;) kept.push(new Uint8Array(1024 * 1024)); },
  objects() { const kept = []; for (let i = 0; ; i++) kept.push({ i }); },
  longString: () => "x".repeat(2 ** 29).length,
  recurse() { return this.recurse() + 1; },
  nested() { let o = {}; for (let i = 0; i < 1e5; i++) o = { o }; return o; },
})`;

let sandbox: JavaScriptSandbox;
let script: JavaScriptScript;
/** Memory is filled under a lower limit and a generous time limit, so that it is the limit that is hit. */
let roomy: JavaScriptSandbox;
let roomyScript: JavaScriptScript;
beforeAll(async () => {
  sandbox = await JavaScriptSandbox.create({ timeoutMs: 300 });
  script = await sandbox.load(HOSTILE);
  roomy = await JavaScriptSandbox.create({ timeoutMs: 10_000, memoryLimitMb: 16 });
  roomyScript = await roomy.load(HOSTILE);
});
afterAll(() => {
  sandbox.close();
  roomy.close();
});

async function failure(name: string, target = script): Promise<unknown> {
  return target.call(name).then(
    (value) => expect.fail(`expected ${name} to fail, it returned ${JSON.stringify(value)}`),
    (error: unknown) => error,
  );
}

describe("a sandboxed call that hits a limit fails with a typed error and the next call works", () => {
  test("an infinite loop is stopped at the time limit, and the script starts afresh", async () => {
    expect(await script.call("count")).toBe(1);
    expect(await script.call("count")).toBe(2);
    const started = performance.now();
    expect(await failure("spin")).toBeInstanceOf(SandboxTimeoutError);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(await script.call("count")).toBe(1);
  });

  test("the interrupt cannot be caught by the sandboxed code", async () => {
    expect(await failure("swallow")).toBeInstanceOf(SandboxTimeoutError);
    expect(await script.call("count")).toBe(1);
  });

  test("catastrophic regular-expression backtracking is interrupted too", async () => {
    expect(await failure("backtrack")).toBeInstanceOf(SandboxTimeoutError);
    expect(await script.call("count")).toBe(1);
  });

  test("a 2 GB allocation fails inside the sandbox, which keeps its state", async () => {
    const before = (await script.call("count")) as number;
    const error = await failure("huge");
    expect(error).toBeInstanceOf(JavaScriptExecutionError);
    expect((error as Error).message).toBe("RangeError: invalid array buffer length");
    expect(await script.call("count")).toBe(before + 1);
  });

  test.each(["grow", "buffers", "objects", "longString"])(
    "memory growing past the limit (%s) is a SandboxMemoryError, and the script starts afresh",
    async (name) => {
      const error = await failure(name, roomyScript);
      expect(error).toBeInstanceOf(SandboxMemoryError);
      expect((error as Error).message).toContain("memory limit of 16 MB");
      expect(await roomyScript.call("count")).toBe(1);
    },
  );

  test("unbounded recursion ends in a stack overflow the sandbox reports", async () => {
    const before = (await script.call("count")) as number;
    const error = await failure("recurse");
    expect(error).toBeInstanceOf(JavaScriptExecutionError);
    expect((error as Error).message).toBe("InternalError: stack overflow");
    expect((error as JavaScriptExecutionError).jsStack).toMatch(/more frames$/);
    expect(await script.call("count")).toBe(before + 1);
  });

  test("a result nested too deeply to render is a stack overflow, and the next call works", async () => {
    const error = await failure("nested", roomyScript);
    expect(error).toBeInstanceOf(SandboxError);
    // QuickJS's own stack check, or, where the thread's native stack runs out first, the engine replaced.
    expect((error as Error).message).toMatch(/InternalError: stack overflow|native stack/);
    expect(typeof (await roomyScript.call("count"))).toBe("number");
  });

  test("calls made at once all complete; only the one that spins fails", async () => {
    const names = ["count", "count", "spin", "count", "count"];
    const outcomes = await Promise.allSettled(names.map((name) => script.call(name)));
    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      "fulfilled",
      "fulfilled",
      "rejected",
      "fulfilled",
      "fulfilled",
    ]);
    expect((outcomes[2] as PromiseRejectedResult).reason).toBeInstanceOf(SandboxTimeoutError);
  });

  test("a script that never finishes loading fails the load and leaves the sandbox usable", async () => {
    await expect(sandbox.load("for (;;);")).rejects.toBeInstanceOf(SandboxTimeoutError);
    const next = await sandbox.load("({ ok: () => 'ok' })");
    expect(await next.call("ok")).toBe("ok");
  });
});
