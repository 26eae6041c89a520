import { existsSync } from "node:fs";
import { mkdir, readFile, rmdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

/** A pids cgroup holding one command: every process it starts joins it, and `pids.max` bounds them. */
export interface PidsCgroup {
  /** Write a process id here to move that process (and its future children) into the cgroup. */
  readonly procsFile: string;
  /** Kills every process left in the cgroup and removes it. */
  release(): Promise<void>;
}

const HIERARCHIES = ["/sys/fs/cgroup/pids", "/sys/fs/cgroup"];
let hierarchy: string | null | undefined;
let serial = 0;

/** The first cgroup hierarchy where this process may make a child cgroup with a `pids.max`, or null. */
async function pidsHierarchy(): Promise<string | null> {
  if (hierarchy !== undefined) return hierarchy;
  hierarchy = null;
  for (const candidate of HIERARCHIES) {
    const probe = join(candidate, `karenina-probe-${process.pid}`);
    try {
      await mkdir(probe);
    } catch {
      continue;
    }
    const usable = existsSync(join(probe, "pids.max"));
    await rmdir(probe).catch(() => undefined);
    if (usable) {
      hierarchy = candidate;
      break;
    }
  }
  return hierarchy;
}

/** Whether a pids cgroup can be made here (as root, with a pids controller mounted writable). */
export async function pidsCgroupAvailable(): Promise<boolean> {
  return (await pidsHierarchy()) !== null;
}

/** The process ids still in a cgroup. */
async function members(dir: string): Promise<number[]> {
  const text = await readFile(join(dir, "cgroup.procs"), "utf8").catch(() => "");
  return text
    .split("\n")
    .filter((line) => line !== "")
    .map(Number);
}

/** Makes a pids cgroup allowing `maxProcesses` processes; null when none can be made here. */
export async function createPidsCgroup(maxProcesses: number): Promise<PidsCgroup | null> {
  const root = await pidsHierarchy();
  if (root === null) return null;
  serial += 1;
  const dir = join(root, `karenina-${process.pid}-${serial}`);
  await mkdir(dir);
  await writeFile(join(dir, "pids.max"), String(maxProcesses));
  return {
    procsFile: join(dir, "cgroup.procs"),
    async release() {
      for (let attempt = 0; attempt < 200; attempt += 1) {
        const left = await members(dir);
        if (left.length === 0) break;
        for (const pid of left) {
          try {
            process.kill(pid, "SIGKILL");
          } catch {
            // Already gone.
          }
        }
        await sleep(10);
      }
      for (let attempt = 0; attempt < 50; attempt += 1) {
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
