import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { whileTicking } from "../../test-support/while-ticking.js";
import { SandboxError, SandboxMemoryError, SandboxTimeoutError } from "../errors.js";
import { JavaScriptExecutionError } from "./errors.js";
import { JavaScriptSandbox, type JavaScriptScript } from "./javascript-sandbox.js";

/**
 * Functions whose time goes into one call of QuickJS's native code, where its interrupt is never checked:
 * without a worker thread to terminate, each blocked the host's event loop for seconds to minutes.
 */
const NATIVE = `
let calls = 0;
({
  count: () => ++calls,
  // About 20 s of one String.prototype.indexOf: 2 M positions compared 8 K characters deep.
  search: () => "a".repeat(1 << 21).indexOf("a".repeat(1 << 13) + "b"),
  // Some 3 s of one TypedArray.prototype.sort on 16 M numbers, made by native copies of a small block.
  sort() {
    const numbers = new Uint16Array(1 << 24);
    for (let i = 0; i < 1 << 16; i++) numbers[i] = (i * 7919) & 0xffff;
    for (let filled = 1 << 16; filled < numbers.length; filled *= 2) numbers.copyWithin(filled, 0, filled);
    return numbers.sort()[0];
  },
})`;

let sandbox: JavaScriptSandbox;
let script: JavaScriptScript;
beforeAll(async () => {
  sandbox = await JavaScriptSandbox.create({ timeoutMs: 1000 });
  script = await sandbox.load(NATIVE);
});
afterAll(() => sandbox.close());

describe("one long native call cannot outlive its time limit nor block the host", () => {
  test.each(["search", "sort"])(
    "a %s in one native call is stopped within seconds, the host's timers keep running, and the next call works",
    async (name) => {
      expect(await script.call("count")).toBeGreaterThan(0);
      const { outcome, ms, ticks } = await whileTicking(() => script.call(name));
      expect(outcome).toBeInstanceOf(SandboxTimeoutError);
      expect((outcome as Error).message).toBe(
        "the sandboxed code ran longer than its limit of 1000 ms and was stopped",
      );
      expect(ms).toBeLessThan(5000);
      // 10 ms ticks over at least the 1 s limit: a blocked event loop would have counted none.
      expect(ticks).toBeGreaterThan(20);
      expect(await script.call("count")).toBe(1);
    },
  );

  test("a script whose evaluation makes the long native call fails its load, and the sandbox goes on", async () => {
    const { outcome, ms, ticks } = await whileTicking(() =>
      sandbox.load('"a".repeat(1 << 21).indexOf("a".repeat(1 << 13) + "b"); ({ never: () => 0 })'),
    );
    expect(outcome).toBeInstanceOf(SandboxTimeoutError);
    expect(ms).toBeLessThan(5000);
    expect(ticks).toBeGreaterThan(20);
    const next = await sandbox.load("({ ok: (x) => x + 1 })");
    expect(await next.call("ok", [41])).toBe(42);
  });

  test("calls queued behind a stopped native call run after it, on the fresh thread", async () => {
    const outcomes = await Promise.allSettled([
      script.call("search"),
      script.call("count"),
      script.call("count"),
    ]);
    expect(outcomes[0]).toMatchObject({ status: "rejected", reason: expect.any(SandboxTimeoutError) });
    expect(outcomes.slice(1)).toEqual([
      { status: "fulfilled", value: 1 },
      { status: "fulfilled", value: 2 },
    ]);
  });

  test("close() ends the thread in the middle of a native call, whatever its time limit", async () => {
    const patient = await JavaScriptSandbox.create({ timeoutMs: 60_000 });
    const searching = await patient.load(NATIVE);
    const started = performance.now();
    const call = searching.call("search").catch((error: unknown) => error);
    setTimeout(() => patient.close(), 300);
    const outcome = await call;
    expect(outcome).toBeInstanceOf(SandboxError);
    expect((outcome as Error).message).toBe("the JavaScript sandbox is closed");
    expect(performance.now() - started).toBeLessThan(5000);
  });
});

describe("values crossing to the host cannot hang or flood it", () => {
  let crossing: JavaScriptScript;
  beforeAll(async () => {
    crossing = await sandbox.load(`
      let calls = 0;
      const endless = () => new Proxy({}, {
        ownKeys: () => ["deeper"],
        getOwnPropertyDescriptor: () => ({ value: 0, enumerable: true, configurable: true }),
        get: () => endless(),
      });
      ({
        count: () => ++calls,
        getter: () => ({ get answer() { for (;;); } }),
        toJson: () => ({ toJSON() { for (;;); } }),
        proxyKeys: () => new Proxy({}, { ownKeys() { for (;;); } }),
        proxyDepth: () => endless(),
        shared() { const leaf = []; let level = [leaf, leaf]; for (let i = 0; i < 30; i++) level = [level, level]; return level; },
        flood() { const row = new Array(1000).fill({}); return new Array(6000).fill(row); },
        longMessage() { throw new Error("x".repeat(30e6)); },
      })`);
  });

  test.each(["getter", "toJson", "proxyKeys"])(
    "a result whose rendering loops forever (%s) is stopped at the time limit, and the next call works",
    async (name) => {
      const error = await crossing.call(name).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SandboxTimeoutError);
      expect(await crossing.call("count")).toBe(1);
    },
  );

  test("a Proxy that is endlessly deep ends in a stack overflow inside the sandbox, which keeps its state", async () => {
    const before = (await crossing.call("count")) as number;
    const error = await crossing.call("proxyDepth").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JavaScriptExecutionError);
    expect((error as Error).message).toBe("InternalError: stack overflow");
    expect(await crossing.call("count")).toBe(before + 1);
  });

  test.each(["shared", "flood"])(
    "a result whose JSON swells far beyond its size in the sandbox (%s) is stopped at the time limit",
    async (name) => {
      // QuickJS renders JSON in one native call, a few MB a second: only the thread's end stops it.
      const { outcome, ms } = await whileTicking(() => crossing.call(name));
      expect(outcome).toBeInstanceOf(SandboxTimeoutError);
      expect(ms).toBeLessThan(5000);
      expect(await crossing.call("count")).toBe(1);
    },
  );

  test("a result of more than 16 MB of JSON is refused, naming the size", async () => {
    const generous = await JavaScriptSandbox.create({ timeoutMs: 10_000, memoryLimitMb: 160 });
    try {
      const big = await generous.load(
        "({ big: () => 'x'.repeat(20 * 1024 * 1024), fits: () => 'x'.repeat(1e6) })",
      );
      const error = await big.call("big").catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SandboxMemoryError);
      expect((error as Error).message).toContain("its result is 20 MB of JSON text, more than the 16 MB");
      expect(((await big.call("fits")) as string).length).toBe(1e6);
    } finally {
      generous.close();
    }
  });

  test("an error with a 30 MB message reaches the host cut short", async () => {
    const error = await crossing.call("longMessage").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JavaScriptExecutionError);
    expect((error as JavaScriptExecutionError).jsMessage).toHaveLength(10_001);
    expect((error as JavaScriptExecutionError).jsMessage.endsWith("x…")).toBe(true);
  });
});

describe("huge allocations stay under the memory limit", () => {
  test.each([
    // QuickJS concatenates lazily, so this one reaches its 2^30 length limit ("string too long") first.
    ["doubling a string", "let s = 'x'; for (;;) s += s;"],
    ["joining a vast array", "return new Array(1e8).join('xy').length;"],
    ["padding a string", "return 'x'.padStart(2 ** 28).length;"],
    [
      "copying a buffer",
      "const b = new ArrayBuffer(48 * 1024 * 1024); return [b.slice(0), b.slice(0)].length;",
    ],
  ])(
    "%s fails as memory (or a RangeError or InternalError), and the next call works",
    async (_what, body) => {
      const roomy = await JavaScriptSandbox.create({ timeoutMs: 10_000, memoryLimitMb: 64 });
      try {
        const hungry = await roomy.load(`({ eat() { ${body} }, ok: () => "ok" })`);
        const error = await hungry.call("eat").catch((e: unknown) => e);
        if (error instanceof JavaScriptExecutionError)
          expect(["RangeError", "InternalError"]).toContain(error.jsName);
        else expect(error).toBeInstanceOf(SandboxMemoryError);
        expect(await hungry.call("ok")).toBe("ok");
      } finally {
        roomy.close();
      }
    },
  );
});

describe("the worker thread and the host process", () => {
  test("an idle sandbox does not keep the host alive, and a pending call keeps it until it returns", async () => {
    const program = `
import { JavaScriptSandbox } from ${JSON.stringify(new URL("./javascript-sandbox.ts", import.meta.url).href)};
const sandbox = await JavaScriptSandbox.create();
const script = await sandbox.load("({ slow() { const end = Date.now() + 300; while (Date.now() < end); return 6 * 7; } })");
console.log(await script.call("slow"));`;
    const started = performance.now();
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--import", "tsx", "--input-type=module", "--eval", program],
      { cwd: fileURLToPath(new URL(".", import.meta.url)), timeout: 30_000 },
    );
    expect(stdout.trim()).toBe("42");
    expect(performance.now() - started).toBeLessThan(25_000);
  }, 40_000);
});
