import { spawn } from "node:child_process";
import { WorkspaceToolError } from "./errors.js";
import type { WorkspaceToolLimits } from "./limits.js";

export interface RunCommandInput {
  /** The program: a name looked up on PATH, or a path. */
  command: string;
  /** Its arguments, passed as they are: no shell parses them. */
  args?: string[];
}

/** Which limit of a container backend most likely ended a command (see {@link RunCommandOutput.limit}). */
export type CommandLimit = "wall_clock" | "cpu_time" | "memory" | "processes";

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
  /** Set by container backends when a limit of the container ended or hindered the command. */
  limit?: CommandLimit;
  /** Set with `limit`: what happened, in a sentence for the model. */
  note?: string;
}

/** The limits every command runner applies. */
export type CommandRunLimits = Pick<WorkspaceToolLimits, "commandOutputBytes" | "commandTimeoutMs">;

/**
 * Where `run_command` runs a program: on the host ({@link hostCommandRunner}) or inside a container backend
 * (`bubblewrapRunner`). A runner that cannot run anything fails when it is made, never at the first call.
 */
export interface CommandRunner {
  /** `host`, `bubblewrap`, ... */
  readonly name: string;
  /** Whether commands are confined (the answering prompt's "sandboxed execution"). */
  readonly sandboxed: boolean;
  /** One sentence for the tool's description: where commands run and what confines them. */
  readonly description: string;
  run(
    workspace: string,
    input: RunCommandInput,
    limits: CommandRunLimits,
    signal?: AbortSignal,
  ): Promise<RunCommandOutput>;
}

/** A process to start: the program, its argv, its working directory and its whole environment. */
export interface ProcessLaunch {
  file: string;
  args: readonly string[];
  cwd: string;
  env: Record<string, string>;
  /** The command as the agent named it, for the error when the program cannot start. */
  shownAs: string;
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
 * Runs a process in its own process group with no stdin, output capped, killed with its group after the
 * time limit or when `signal` aborts; the group is killed too once the process exits.
 */
export function runProcess(
  launch: ProcessLaunch,
  limits: CommandRunLimits,
  signal?: AbortSignal,
): Promise<RunCommandOutput> {
  return new Promise((resolve, reject) => {
    const child = spawn(launch.file, [...launch.args], {
      cwd: launch.cwd,
      env: launch.env,
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
          `cannot start ${JSON.stringify(launch.shownAs)} (${error.code ?? error.message})`,
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

/**
 * Runs a program in the workspace: argv as given (no shell), cwd = the workspace, an environment of only
 * `PATH` and `HOME` (= the workspace), no stdin, output capped, killed with its children after the time limit
 * or when `signal` aborts. This is not a security sandbox: the program runs as this user, with this user's
 * rights over the whole file system and the network.
 */
export function runCommand(
  workspace: string,
  input: RunCommandInput,
  limits: CommandRunLimits,
  signal?: AbortSignal,
): Promise<RunCommandOutput> {
  return runProcess(
    {
      file: input.command,
      args: input.args ?? [],
      cwd: workspace,
      env: { PATH: process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin", HOME: workspace },
      shownAs: input.command,
    },
    limits,
    signal,
  );
}

/**
 * The host backend: commands run as the user running karenina, unconfined ({@link runCommand}). Only for
 * agents and workspaces you trust.
 */
export const hostCommandRunner: CommandRunner = Object.freeze({
  name: "host",
  sandboxed: false,
  description:
    "It runs on the host, as the user running karenina, with the workspace as working directory (not a sandbox).",
  run: runCommand,
});
