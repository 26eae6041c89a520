/**
 * Helpers of the sandbox-confinement tests (written for this project): they find sandbox processes through
 * /proc, by the marker that ends their command line, and read what the kernel says of them.
 */
import { readdirSync, readFileSync } from "node:fs";
import { sandboxProcessMarker } from "../sandbox-process.js";

function commandLine(pid: number): string[] | null {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
  } catch {
    return null; // gone meanwhile
  }
}

/** The fields of `/proc/<pid>/status` (`State`, `PPid`, `CapEff`, `NoNewPrivs`, ...), or `null` once it is gone. */
export function processStatus(pid: number): Record<string, string> | null {
  try {
    const text = readFileSync(`/proc/${pid}/status`, "utf8");
    return Object.fromEntries(text.split("\n").map((line) => line.split(/:\s*/, 2) as [string, string]));
  } catch {
    return null;
  }
}

/** Whether `pid` is a live process (not gone, not a zombie waiting to be reaped). */
export function isRunning(pid: number): boolean {
  const state = processStatus(pid)?.State;
  return state !== undefined && !state.startsWith("Z");
}

/** Live processes started as sandbox processes of the host `hostPid`: wrapping programs and Node alike. */
export function sandboxProcessesOf(hostPid: number): number[] {
  const marker = sandboxProcessMarker(hostPid);
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((pid) => commandLine(pid)?.includes(marker) && isRunning(pid));
}

/** The sandboxes of `hostPid` that run: one Node process each (a sandbox may also have a wrapping program). */
export function runningSandboxesOf(hostPid: number): number[] {
  return sandboxProcessesOf(hostPid).filter((pid) => commandLine(pid)?.[0] === process.execPath);
}

/** The Node process (not a wrapping program) among the sandbox processes of `hostPid` that descend from `ancestor`. */
export function sandboxNodeProcess(hostPid: number, ancestor: number): number | undefined {
  return sandboxProcessesOf(hostPid).find(
    (pid) => commandLine(pid)?.[0] === process.execPath && descendsFrom(pid, ancestor),
  );
}

function descendsFrom(pid: number, ancestor: number): boolean {
  for (let current = pid; current > 1; current = Number(processStatus(current)?.PPid ?? 0)) {
    if (current === ancestor) return true;
  }
  return false;
}

/** Polls `condition` every 50 ms until it holds or `deadlineMs` have passed; returns its last value. */
export async function waitFor(condition: () => boolean, deadlineMs: number): Promise<boolean> {
  const end = Date.now() + deadlineMs;
  while (!condition()) {
    if (Date.now() > end) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}
