import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { SandboxMemoryError } from "../errors.js";
import { PythonSandbox } from "./python-sandbox.js";

let sandbox: PythonSandbox;

beforeAll(async () => {
  sandbox = PythonSandbox.create({ memoryLimitMb: 64 });
  await sandbox.start();
});

afterAll(async () => {
  await sandbox.close();
});

const stillWorks = (): Promise<unknown> => sandbox.run({ code: "x = 6 * 7", entry: "x" });

describe("memory limit", () => {
  test("a 200 MB string ends in SandboxMemoryError and the next call works", async () => {
    const error = await sandbox
      .run({ code: "x = 'a' * (200 * 1024 * 1024)", entry: "len(x)" })
      .catch((e) => e);
    expect(error).toBeInstanceOf(SandboxMemoryError);
    expect((error as SandboxMemoryError).limitMb).toBe(64);
    expect(await stillWorks()).toBe(42);
  });

  test("a list that keeps growing ends in SandboxMemoryError", async () => {
    const code = "items = []\nwhile True:\n    items.append(bytearray(1024 * 1024))";
    await expect(sandbox.run({ code, entry: "0" })).rejects.toThrow(SandboxMemoryError);
    expect(await stillWorks()).toBe(42);
  });

  test("memory the code frees is reused: repeated 40 MB allocations stay within 64 MB", async () => {
    for (let i = 0; i < 3; i++) {
      expect(await sandbox.run({ code: "x = bytearray(40 * 1024 * 1024)", entry: "len(x)" })).toBe(
        41_943_040,
      );
    }
  });

  test("the trusted setup's own memory does not count against the limit", async () => {
    const setup =
      "import sys, types\nheld = types.ModuleType('held')\nheld.data = bytearray(80 * 1024 * 1024)\nsys.modules['held'] = held";
    const code = "import held\nx = bytearray(40 * 1024 * 1024)";
    expect(await sandbox.run({ setup, code, entry: "len(held.data) + len(x)" })).toBe(125_829_120);
  });
});
