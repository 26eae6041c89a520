/**
 * The deep agent's container: Claude Code (started by the Claude Agent SDK through its
 * `spawnClaudeCodeProcess` hook) runs inside bubblewrap with the workspace writable, its own program and the
 * host's system files read-only, a private home, the network shared (its model is reached over it) and the
 * limits of `run_command`.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, realpathSync } from "node:fs";
import { dirname, isAbsolute, join } from "node:path";
import type { Readable, Writable } from "node:stream";
import {
  bubblewrapArgs,
  bubblewrapProgram,
  bwrapLaunch,
  onPath,
  SANDBOX_PATH,
  underLimits,
} from "./bubblewrap.js";
import { type ContainerLimits, DEFAULT_CONTAINER_LIMITS } from "./limits.js";
import { createPidsCgroup, type PidsCgroup } from "./pids-cgroup.js";

/** What the Claude Agent SDK asks its spawn hook to start (its `SpawnOptions`). */
export interface ClaudeSpawnRequest {
  command: string;
  args: string[];
  cwd?: string;
  env: Record<string, string | undefined>;
  signal?: AbortSignal;
}

type ExitListener = (code: number | null, signal: NodeJS.Signals | null) => void;

/**
 * The process handed back to the SDK (its `SpawnedProcess`): a `ChildProcess` with its pipes for bubblewrap,
 * an adapter over the engine's attach stream for Docker and Podman. The SDK writes stdin, reads stdout, checks
 * `killed`, `exitCode` and `signalCode`, kills, and listens for `exit` and `error`.
 */
export interface ClaudeSpawnedProcess {
  stdin: Writable;
  stdout: Readable;
  readonly killed: boolean;
  readonly exitCode: number | null;
  readonly signalCode?: NodeJS.Signals | null;
  kill(signal?: NodeJS.Signals): boolean;
  on(event: "exit", listener: ExitListener): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
  once(event: "exit", listener: ExitListener): unknown;
  once(event: "error", listener: (error: Error) => void): unknown;
  off(event: "exit", listener: ExitListener): unknown;
  off(event: "error", listener: (error: Error) => void): unknown;
}

/** How {@link claudeCodeContainer} confines Claude Code. */
export interface ClaudeCodeContainerOptions {
  /** The workspace: mounted read-write at its own path, Claude Code's working directory. */
  workspace: string;
  /** CPU time, address space and process count; those of `run_command` by default. */
  limits?: Partial<ContainerLimits>;
  /** The `bwrap` program; default the first `bwrap` on PATH. */
  bwrapPath?: string;
  /** Receives Claude Code's stderr (the SDK does not read it from a custom spawn). */
  stderr?: (data: string) => void;
}

/** One Claude Code session's container: give `spawn` to the SDK, call `dispose` when the session is over. */
export interface ClaudeCodeSandbox {
  /** Starts the SDK's command inside the container (pass as `spawnClaudeCodeProcess`). */
  spawn(request: ClaudeSpawnRequest): ClaudeSpawnedProcess;
  /** Why the container could not start Claude Code, when it could not (the session then fails with it). */
  readonly failure: Error | null;
  /** Kills whatever is left of the container and removes it (or releases its cgroup). */
  dispose(): Promise<void>;
}

/** A Claude Code session's bubblewrap container. */
export interface ClaudeCodeContainer extends ClaudeCodeSandbox {
  /** The bwrap arguments of the last spawn (for tests and diagnostics; no environment values in them). */
  readonly lastArgs: readonly string[] | null;
}

/**
 * The least address space (RLIMIT_AS) Claude Code gets, whatever the model's memory limit: Claude Code 2.1 (a
 * Bun program) aborts at start-up under 512 MB and runs a session under 1 GB; 2 GB (run_command's default)
 * leaves room for its tools, which inherit the limit.
 */
export const CLAUDE_CODE_MIN_ADDRESS_SPACE = 2 * 1024 ** 3;
/** The private home inside the container's /tmp (a tmpfs that disappears with the container). */
export const CLAUDE_CODE_HOME = "/tmp/claude-home";
/** Variables that point Claude Code at host folders it cannot see; unset so it uses its private home. */
export const HOST_PATH_VARIABLES: readonly string[] = [
  "CLAUDE_CONFIG_DIR",
  "XDG_CONFIG_HOME",
  "XDG_CACHE_HOME",
  "XDG_DATA_HOME",
  "XDG_STATE_HOME",
  "XDG_RUNTIME_DIR",
];
const SYSTEM_PREFIXES = ["/usr/", "/bin/", "/sbin/", "/lib/", "/lib64/", "/lib32/"];

/** The nearest folder at or above `file`'s folder holding a package.json, else `file`'s folder. */
function packageDirOf(file: string): string {
  const start = dirname(file);
  for (let dir = start; dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json"))) return dir;
  }
  return start;
}

const isSystemPath = (path: string) => SYSTEM_PREFIXES.some((prefix) => path.startsWith(prefix));

/**
 * The program to run (absolute) and the host paths to bind read-only for it: the executable itself, and when
 * its first argument is a script file (`node cli.js`), that script's package folder.
 */
export function claudeProgramMounts(request: Pick<ClaudeSpawnRequest, "command" | "args" | "env">): {
  command: string;
  readOnly: string[];
} {
  const command = isAbsolute(request.command)
    ? request.command
    : (onPath(request.command, request.env.PATH ?? process.env.PATH) ?? request.command);
  const readOnly: string[] = [];
  if (isAbsolute(command) && !isSystemPath(realpathSync(command))) readOnly.push(realpathSync(command));
  readOnly.push(...scriptMounts(request.args));
  return { command: isAbsolute(command) ? realpathSync(command) : command, readOnly };
}

/** When the first argument is a script file (`node cli.js`), its package folder (unless a system one). */
export function scriptMounts(args: readonly string[]): string[] {
  const script = args[0];
  if (script === undefined || !isAbsolute(script) || !existsSync(script)) return [];
  const dir = packageDirOf(realpathSync(script));
  return isSystemPath(`${dir}/`) ? [] : [dir];
}

/**
 * Checks that bubblewrap works here and makes the container of one Claude Code session in `workspace`.
 * Inside: the workspace read-write (the working directory), the Claude Code program read-only, the host's
 * /usr and system libraries read-only, a few /etc files, a private /tmp holding a private home, the host's
 * network shared (Claude Code must reach its model), the environment the SDK gives (its key included, passed
 * by environment, not on the command line) with HOME, TMPDIR and PATH replaced; under prlimit's CPU,
 * address-space (at least {@link CLAUDE_CODE_MIN_ADDRESS_SPACE}) and process limits, as root a pids cgroup.
 * When Claude Code exits, the container's PID namespace ends, and every process in it with it.
 * @throws {ContainerBackendUnavailableError} when bwrap is missing or cannot make a container here.
 */
export async function claudeCodeContainer(options: ClaudeCodeContainerOptions): Promise<ClaudeCodeContainer> {
  const bwrap = await bubblewrapProgram(options.bwrapPath);
  const limits: ContainerLimits = { ...DEFAULT_CONTAINER_LIMITS, ...options.limits };
  limits.memoryBytes = Math.max(limits.memoryBytes, CLAUDE_CODE_MIN_ADDRESS_SPACE);
  const asRoot = process.getuid?.() === 0;
  const cgroup: PidsCgroup | null = asRoot ? await createPidsCgroup(limits.maxProcesses) : null;
  const children: ChildProcess[] = [];
  let lastArgs: string[] | null = null;
  let released: Promise<void> | null = null;
  return {
    failure: null,
    get lastArgs() {
      return lastArgs;
    },
    spawn(request) {
      const { command, readOnly } = claudeProgramMounts(request);
      const args = [
        ...bubblewrapArgs(options.workspace, true, {
          readOnly,
          home: CLAUDE_CODE_HOME,
          keepEnvironment: true,
        }),
        ...HOST_PATH_VARIABLES.flatMap((name) => ["--unsetenv", name]),
        "--",
        ...underLimits(limits, asRoot, [command, ...request.args]),
      ];
      lastArgs = args;
      const env: Record<string, string> = {};
      for (const [name, value] of Object.entries(request.env)) if (value !== undefined) env[name] = value;
      env.PATH = SANDBOX_PATH;
      const launch = bwrapLaunch(bwrap, args, cgroup);
      const child = spawn(launch.file, launch.args, {
        cwd: options.workspace,
        env,
        stdio: ["pipe", "pipe", "pipe"],
        ...(request.signal === undefined ? {} : { signal: request.signal, killSignal: "SIGKILL" }),
      });
      children.push(child);
      child.stderr?.setEncoding("utf8");
      child.stderr?.on("data", (data: string) => options.stderr?.(data));
      return child as ChildProcess & ClaudeSpawnedProcess;
    },
    dispose() {
      released ??= (async () => {
        for (const child of children) {
          if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
        }
        await cgroup?.release();
      })();
      return released;
    },
  };
}
