/**
 * The import gate on its own (written for this project): should Python hold a JavaScript object despite the
 * Python lockdown, the locked gate still refuses every import that would act on it, and every change to the
 * virtual file system, while the standard library still imports. The probe loads Pyodide without the Python
 * lockdown, so `import js` works there: only the gate stands in the way.
 */
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { expect, test } from "vitest";
import { probeInWorker } from "./__fixtures__/worker-probe.js";

interface GateReport {
  readonly beforeLock: string;
  readonly guardedBridgeImports: number;
  readonly writeTmp: string;
  readonly makeDirectory: string;
  readonly readStdlib: string;
  readonly reachJavaScript: string;
}

function probeLockedGate(): Promise<GateReport> {
  const directory = dirname(createRequire(import.meta.url).resolve("pyodide/package.json"));
  return probeInWorker(new URL("./__fixtures__/gate-probe.ts", import.meta.url), {
    workerData: {
      pyodideDirectory: `${directory}/`,
      pyodideModule: pathToFileURL(join(directory, "pyodide.mjs")).href,
    },
    stderr: true,
  });
}

test("once locked, the import gate refuses JavaScript objects and file-system writes, and keeps reads", async () => {
  const report = await probeLockedGate();
  expect(report.beforeLock).toBe("0");
  expect(report.guardedBridgeImports).toBeGreaterThan(50);
  expect(report.writeTmp).toMatch(/refused: .*OSError: \[Errno 69\] Read-only file system/);
  expect(report.makeDirectory).toMatch(/refused: .*OSError: \[Errno 69\] Read-only file system/);
  expect(report.readStdlib).toBe("3/2");
  expect(report.reachJavaScript).toMatch(
    /refused: .*the Python sandbox refused \w+: no JavaScript object is reachable/,
  );
}, 120_000);
