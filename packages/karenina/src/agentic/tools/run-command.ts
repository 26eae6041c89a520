import { spawn } from "node:child_process";
import { WorkspaceToolError } from "./errors.js";
import type { WorkspaceToolLimits } from "./limits.js";

export interface RunCommandInput {
  /** The program: a name looked up on PATH, or a path. */
  command: string;
  /** Its arguments, passed as they are: no shell parses them. */
  args?: string[];
}

export interface RunCommandOutput {
  /** Null when a signal ended the command. */
  exit_code: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  /** True when the command ran past the time limit and was killed, with every process it started. */
  timed_out: boolean;
  /** True when stdout or stderr passed `commandOutputBytes` and was cut there. */
  output_truncated: boolean;
}

/** Collects a stream up to `limit` bytes, reading (and dropping) the rest so the command is never blocked. */
function capped(limit: number) {
  const chunks: Buffer[] = [];
  let kept = 0;
  let cut = false;
  return {
    add(chunk: Buffer) {
      const room = limit - kept;
      if (chunk.length > room) cut = true;
      if (room <= 0) return;
      const part = chunk.subarray(0, room);
      chunks.push(part);
      kept += part.length;
    },
    text: () => Buffer.concat(chunks).toString("utf8"),
    get cut() {
      return cut;
    },
  };
}

/** Kills the command's whole process group, so that children it started do not outlive it. */
function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // The group is already gone.
  }
}

/**
 * Runs a program in the workspace: argv as given (no shell), cwd = the workspace, an environment of only
 * `PATH` and `HOME` (= the workspace), no stdin, output capped, killed with its children after the time limit
 * or when `signal` aborts. This is not a security sandbox: the program runs as this user, with this user's
 * rights over the whole file system and the network.
 */
export function runCommand(
  workspace: string,
  input: RunCommandInput,
  limits: Pick<WorkspaceToolLimits, "commandOutputBytes" | "commandTimeoutMs">,
  signal?: AbortSignal,
): Promise<RunCommandOutput> {
  return new Promise((resolve, reject) => {
    const child = spawn(input.command, input.args ?? [], {
      cwd: workspace,
      env: { PATH: process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin", HOME: workspace },
      stdio: ["ignore", "pipe", "pipe"],
      shell: false,
      detached: true,
    });
    const stdout = capped(limits.commandOutputBytes);
    const stderr = capped(limits.commandOutputBytes);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, limits.commandTimeoutMs);
    const abort = () => killGroup(child.pid);
    signal?.addEventListener("abort", abort, { once: true });
    const finish = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", abort);
    };
    child.stdout.on("data", (chunk: Buffer) => stdout.add(chunk));
    child.stderr.on("data", (chunk: Buffer) => stderr.add(chunk));
    child.once("error", (error: NodeJS.ErrnoException) => {
      finish();
      reject(
        new WorkspaceToolError(
          "run_command",
          `cannot start ${JSON.stringify(input.command)} (${error.code ?? error.message})`,
        ),
      );
    });
    child.once("close", (code, killedBy) => {
      finish();
      // Background processes it left behind do not outlive the call.
      killGroup(child.pid);
      resolve({
        exit_code: code,
        signal: killedBy,
        stdout: stdout.text(),
        stderr: stderr.text(),
        timed_out: timedOut,
        output_truncated: stdout.cut || stderr.cut,
      });
    });
    if (signal?.aborted) abort();
  });
}
