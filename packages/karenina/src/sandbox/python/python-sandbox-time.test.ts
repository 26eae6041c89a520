import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { SandboxError, SandboxTimeoutError } from "../errors.js";
import { PythonExecutionError } from "./errors.js";
import { PythonSandbox } from "./python-sandbox.js";

let sandbox: PythonSandbox;

beforeAll(async () => {
  sandbox = PythonSandbox.create({ timeoutMs: 1000 });
  await sandbox.start();
});

afterAll(async () => {
  await sandbox.close();
});

const stillWorks = (): Promise<unknown> => sandbox.run({ code: "x = 6 * 7", entry: "x" });

describe("time limit", () => {
  test("an infinite loop is stopped with SandboxTimeoutError and the next call works", async () => {
    const started = performance.now();
    await expect(sandbox.run({ code: "while True:\n    pass", entry: "0" })).rejects.toThrow(
      SandboxTimeoutError,
    );
    expect(performance.now() - started).toBeLessThan(2000);
    expect(await stillWorks()).toBe(42);
  });

  test("a long sleep is stopped too", async () => {
    await expect(sandbox.run({ code: "import time\ntime.sleep(60)", entry: "0" })).rejects.toThrow(
      SandboxTimeoutError,
    );
    expect(await stillWorks()).toBe(42);
  });

  test("a loop that swallows every exception is stopped all the same", async () => {
    const code =
      "while True:\n    try:\n        while True:\n            pass\n    except BaseException:\n        pass";
    const error = await sandbox.run({ code, entry: "0" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SandboxTimeoutError);
    expect((error as SandboxTimeoutError).timeoutMs).toBe(1000);
    expect(await stillWorks()).toBe(42);
  });
});

describe("crashes", () => {
  test("os._exit crashes only the interpreter; the next call gets a fresh one", async () => {
    const error = await sandbox.run({ code: "import os\nos._exit(3)", entry: "0" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SandboxError);
    expect(error).not.toBeInstanceOf(PythonExecutionError);
    expect(await stillWorks()).toBe(42);
  });

  test("runaway recursion is an ordinary RecursionError", async () => {
    const error = await sandbox
      .run({ code: "def f(n):\n    return f(n + 1)", entry: "f", args: [0] })
      .catch((e) => e);
    expect((error as PythonExecutionError).pythonType).toBe("RecursionError");
    expect(await stillWorks()).toBe(42);
  });
});
