/**
 * CPU accounting for bench/agent-container.ts. A container's command is not in this process's reaped
 * children's CPU (cutime/cstime): with its own PID namespace, bwrap does not wait for the namespace's init,
 * so the command's CPU is lost to the kernel's books of the caller. A cgroup v1 `cpuacct` group counts every
 * process in it whoever reaps it; it is used when one can be made here (root, the controller mounted on its
 * own hierarchy, so the backend's pids cgroups, on another hierarchy, do not move commands out of it).
 */
import { existsSync, readFileSync } from "node:fs";
import { mkdir, rmdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on Linux). */
const TICKS_PER_SECOND = 100;
const CPUACCT = "/sys/fs/cgroup/cpuacct";

/** CPU (ms) of the child processes this process has waited for: cutime + cstime of /proc/self/stat. */
export function reapedChildrenCpuMs(): number {
  const stat = readFileSync("/proc/self/stat", "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[16 - 3]) + Number(fields[17 - 3])) * 1000) / TICKS_PER_SECOND;
}

/** This process's own CPU (ms), user + system, every thread. */
export function ownCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** CPU (ms) of every process ever in the cpuacct group `dir` (cpuacct.usage, ns). */
export function groupCpuMs(dir: string): number {
  return Number(readFileSync(join(dir, "cpuacct.usage"), "utf8").trim()) / 1e6;
}

/** A cpuacct group: add processes (their future children join too), read its CPU, remove it. */
export interface CpuGroup {
  readonly dir: string;
  add(pid: number): Promise<void>;
  cpuMs(): number;
  remove(): Promise<void>;
}

/** This process's cpuacct group, from /proc/self/cgroup (v1: `N:cpuacct:/path` or `N:cpu,cpuacct:/path`). */
function ownGroup(): string | null {
  const line = readFileSync("/proc/self/cgroup", "utf8")
    .split("\n")
    .find((entry) => entry.split(":")[1]?.split(",").includes("cpuacct"));
  return line === undefined ? null : join(CPUACCT, line.split(":")[2] ?? "/");
}

let serial = 0;

/** A fresh cpuacct group beside this process's, or null when none can be made here. */
export async function createCpuGroup(): Promise<CpuGroup | null> {
  const parent = ownGroup();
  if (parent === null || !existsSync(join(parent, "cpuacct.usage"))) return null;
  serial += 1;
  const dir = join(parent, `karenina-bench-${process.pid}-${serial}`);
  try {
    await mkdir(dir);
  } catch {
    return null;
  }
  return {
    dir,
    add: (pid) => writeFile(join(dir, "cgroup.procs"), String(pid)),
    cpuMs: () => groupCpuMs(dir),
    async remove() {
      // Processes that just exited may take a moment to leave.
      for (let attempt = 0; attempt < 50; attempt++) {
        try {
          await rmdir(dir);
          return;
        } catch {
          await sleep(20);
        }
      }
    },
  };
}

/** Moves `pid` back to this process's original cpuacct group (to empty a group before removing it). */
export async function returnToOwnGroup(pid: number, original: string): Promise<void> {
  await writeFile(join(original, "cgroup.procs"), String(pid));
}

/** This process's cpuacct group directory, or null. */
export const currentCpuGroup = ownGroup;
