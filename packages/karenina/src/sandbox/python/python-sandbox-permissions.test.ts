/**
 * The second wall: should code ever escape Pyodide into the JavaScript of its process, that process holds no
 * secrets and, under Node's permission model, cannot write files, start processes or threads, or read host
 * files. A probe script started exactly as the Pyodide worker is tries each of these.
 */
import { existsSync } from "node:fs";
import { beforeAll, describe, expect, test } from "vitest";
import { PythonSandbox } from "./python-sandbox.js";
import { PERMISSION_FLAG, spawnSandboxProcess } from "./sandbox-process.js";

const NO_PERMISSION_MODEL = `Node ${process.version} has no permission model: these restrictions do not apply`;

interface ProbeReport {
  readonly writeTarget: string;
  readonly writeFile: string;
  readonly spawnProcess: string;
  readonly startWorker: string;
  readonly loadAddon: string;
  readonly readHostFile: string;
  readonly listRoot: string;
  readonly environment: readonly string[];
}

let report: ProbeReport;

beforeAll(async () => {
  process.env.KARENINA_SECRET_TEST = "host-secret-value";
  try {
    const child = await spawnSandboxProcess(new URL("./__fixtures__/permission-probe.ts", import.meta.url), {
      jsHeapLimitMb: 64,
      readPaths: [],
    });
    report = await new Promise<ProbeReport>((resolve, reject) => {
      child.once("message", (message) => resolve(message as ProbeReport));
      child.once("error", reject);
      child.once("exit", (code) => reject(new Error(`the probe exited (code ${code}) without reporting`)));
    });
    child.kill("SIGKILL");
  } finally {
    delete process.env.KARENINA_SECRET_TEST;
  }
});

describe("the sandbox process", () => {
  test("has an empty environment", () => {
    expect(report.environment).toEqual([]);
  });

  test("cannot write a file", (context) => {
    if (PERMISSION_FLAG === null) context.skip(NO_PERMISSION_MODEL);
    expect(report.writeFile).toBe("ERR_ACCESS_DENIED");
    expect(report.writeTarget).toMatch(/karenina-permission-probe-/);
    expect(existsSync(report.writeTarget)).toBe(false);
  });

  test("cannot start a child process or a worker thread, or load a native addon", (context) => {
    if (PERMISSION_FLAG === null) context.skip(NO_PERMISSION_MODEL);
    expect(report.spawnProcess).toBe("ERR_ACCESS_DENIED");
    expect(report.startWorker).toBe("ERR_ACCESS_DENIED");
    expect(report.loadAddon).toBe("ERR_DLOPEN_DISABLED");
  });

  test("cannot read or list anything outside the files it was allowed", (context) => {
    if (PERMISSION_FLAG === null) context.skip(NO_PERMISSION_MODEL);
    expect(report.readHostFile).toBe("ERR_ACCESS_DENIED");
    expect(report.listRoot).toBe("ERR_ACCESS_DENIED");
  });

  test("the Python sandbox says whether its process runs under the permission model", () => {
    expect(PythonSandbox.create().permissionModel).toBe(PERMISSION_FLAG !== null);
  });
});
