import type { CommandLimit } from "../tools/index.js";

/** The resource limits of one command in a container. */
export interface ContainerLimits {
  /** CPU seconds (RLIMIT_CPU): past them the kernel stops the command with SIGXCPU, then SIGKILL. */
  cpuSeconds: number;
  /** Address space in bytes (RLIMIT_AS): allocations past it fail. */
  memoryBytes: number;
  /** Processes (and threads) the command may have at once, itself included. */
  maxProcesses: number;
}

export const DEFAULT_CONTAINER_LIMITS: Readonly<ContainerLimits> = Object.freeze({
  cpuSeconds: 60,
  memoryBytes: 2 * 1024 ** 3,
  maxProcesses: 256,
});

const OUT_OF_MEMORY = /out of memory|\bOOM\b|cannot allocate memory|MemoryError|bad_alloc|allocation failed/i;
const NO_FORK = /cannot fork|fork: retry|Resource temporarily unavailable|EAGAIN/i;

/** What a command's ending says about the limit that stopped it, or null when none did. */
export function limitReached(
  outcome: { timed_out: boolean; signal: string | null; stderr: string },
  limits: ContainerLimits,
  timeoutMs: number,
): { limit: CommandLimit; note: string } | null {
  if (outcome.timed_out) {
    return {
      limit: "wall_clock",
      note: `The command ran past the time limit of ${timeoutMs} ms and was killed with every process it started.`,
    };
  }
  if (outcome.signal === "SIGXCPU") {
    return {
      limit: "cpu_time",
      note: `The command used its ${limits.cpuSeconds} s of CPU time and was stopped.`,
    };
  }
  if (OUT_OF_MEMORY.test(outcome.stderr)) {
    return {
      limit: "memory",
      note: `The command ran out of memory: the container allows ${Math.round(limits.memoryBytes / 1024 ** 2)} MB of address space.`,
    };
  }
  if (NO_FORK.test(outcome.stderr)) {
    return {
      limit: "processes",
      note: `The command could not start more processes: the container allows ${limits.maxProcesses} at once.`,
    };
  }
  return null;
}
