/**
 * A sandbox closed while its interpreter starts kills the starting process at once (issue 14: a command that
 * started its sandbox early and then stops, e.g. on a usage error, must not wait seconds for that start).
 * Sandbox processes are found through /proc, so this runs on Linux only.
 */
import { platform } from "node:os";
import { expect, test } from "vitest";
import { sandboxProcessesOf, waitFor } from "./__fixtures__/sandbox-processes.js";
import { PythonSandbox } from "./python-sandbox.js";

test.skipIf(platform() !== "linux")(
  "closing a sandbox while it starts kills its process without waiting for the start",
  { timeout: 30_000 },
  async () => {
    const sandbox = PythonSandbox.create();
    const starting = sandbox.start();
    expect(await waitFor(() => sandboxProcessesOf(process.pid).length > 0, 20_000)).toBe(true);
    const outcome = starting.then(
      () => "started",
      (error: Error) => error.message,
    );
    await sandbox.close();
    // Loading Pyodide takes seconds: without the abort, the process lives until its start-up is done.
    expect(await waitFor(() => sandboxProcessesOf(process.pid).length === 0, 1_000)).toBe(true);
    expect(await outcome).toContain("closed");
  },
);
