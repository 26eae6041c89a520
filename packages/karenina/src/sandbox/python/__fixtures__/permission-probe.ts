/**
 * Script used by python-sandbox-permissions.test.ts (written for this project). The test starts it with
 * `spawnSandboxProcess`, exactly as the Pyodide worker is started; it does what code that escaped Pyodide into
 * the process's JavaScript would try, and reports over IPC how each attempt ended: `"allowed"` or the error code,
 * and which file it tried to write (its PID may be 1, in a PID namespace of its own, so the name is random).
 */
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomUUID } from "node:crypto";
import { Worker } from "node:worker_threads";

function outcome(attempt: () => unknown): string {
  try {
    attempt();
    return "allowed";
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? String(error);
  }
}

const writeTarget = join(tmpdir(), `karenina-permission-probe-${randomUUID()}`);

process.send?.({
  writeTarget,
  writeFile: outcome(() => writeFileSync(writeTarget, "escaped")),
  spawnProcess: outcome(() => {
    const result = spawnSync("/bin/sh", ["-c", "exit 0"]);
    if (result.error) throw result.error;
  }),
  startWorker: outcome(() => new Worker("process.exit()", { eval: true })),
  loadAddon: outcome(() => process.dlopen({ exports: {} }, "/nonexistent/addon.node")),
  readHostFile: outcome(() => readFileSync("/etc/hostname")),
  listRoot: outcome(() => readdirSync("/")),
  environment: Object.keys(process.env),
});
