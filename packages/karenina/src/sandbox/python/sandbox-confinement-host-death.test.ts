/**
 * A sandbox process never outlives its host: a host killed with SIGKILL (no `exit` handler runs) while its
 * sandbox runs `while True: pass` (so the sandbox never notices that its IPC channel closed) leaves no
 * process behind. Without the defence, the same loop keeps running after its host, as the second test shows.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterEach, describe, expect, test } from "vitest";
import { sandboxProcessesOf, waitFor } from "./__fixtures__/sandbox-processes.js";
import { sandboxConfinement } from "./os-confinement/index.js";

const CI_REQUIRES_CONFINEMENT =
  process.env.CI === "true" && process.platform === "linux" && process.geteuid?.() === 0;

const HOST_SCRIPT = fileURLToPath(new URL("./__fixtures__/endless-loop-host.ts", import.meta.url));
const TSX_LOADER = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;

interface Host {
  readonly child: ChildProcess;
  readonly stderr: () => string;
}

const leftovers: number[] = [];

afterEach(() => {
  for (const pid of leftovers.splice(0)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
});

/** Starts a host process (`python` or `unconfined` mode) and resolves once its sandbox is looping. */
async function startLoopingHost(mode: "python" | "unconfined"): Promise<Host> {
  const child = spawn(process.execPath, ["--import", TSX_LOADER, HOST_SCRIPT, mode], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      if (chunk.includes("looping")) resolve();
    });
    child.once("exit", (code, signal) => reject(new Error(`the host ended (${signal ?? code}): ${stderr}`)));
  });
  // Let the request reach the sandbox and its loop start.
  await new Promise((resolve) => setTimeout(resolve, 500));
  return { child, stderr: () => stderr };
}

async function killHost(host: Host): Promise<number[]> {
  const hostPid = host.child.pid as number;
  const before = sandboxProcessesOf(hostPid);
  leftovers.push(...before);
  host.child.kill("SIGKILL");
  await new Promise((resolve) => host.child.once("exit", resolve));
  return before;
}

describe("a host killed with SIGKILL while its sandbox runs an endless loop", () => {
  test("leaves no sandbox process behind", { timeout: 90_000 }, async () => {
    const report = await sandboxConfinement();
    const host = await startLoopingHost("python");
    const hostPid = host.child.pid as number;
    const before = await killHost(host);
    expect(before.length).toBeGreaterThan(0);
    const gone = await waitFor(() => sandboxProcessesOf(hostPid).length === 0, 5000);
    if (!report.dieWithHost) {
      expect(
        CI_REQUIRES_CONFINEMENT,
        `in CI, as root on Linux, sandboxes must die with their host: ${report.how}`,
      ).toBe(false);
      expect(host.stderr()).toContain("KARENINA_SANDBOX_UNCONFINED");
      expect(host.stderr()).toContain("death with its host");
      return;
    }
    expect(gone, `still running: ${sandboxProcessesOf(hostPid).join(", ")}`).toBe(true);
  });

  test("without the defence, the loop outlives its host", { timeout: 60_000 }, async () => {
    const host = await startLoopingHost("unconfined");
    const hostPid = host.child.pid as number;
    const before = await killHost(host);
    expect(before).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(sandboxProcessesOf(hostPid)).toEqual(before);
  });
});
