/**
 * The deep agent's container: Claude Code (started by the Claude Agent SDK through its
 * `spawnClaudeCodeProcess` hook) runs inside bubblewrap with the workspace writable, its own program and the
 * host's system files read-only, a private home and the limits of `run_command`. Its network is, by default,
 * only its model's API: the container has no network but its loopback, where a relay leads to the host's model
 * gate, which forwards to the model's API and nowhere else. With `network: "host"` it shares the host's network.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, realpathSync } from "node:fs";
import { dirname, isAbsolute, join } from "node:path";
import type { Readable, Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import {
  bubblewrapArgs,
  bubblewrapProgram,
  bwrapLaunch,
  onPath,
  SANDBOX_PATH,
  underLimits,
} from "./bubblewrap.js";
import { type ContainerLimits, DEFAULT_CONTAINER_LIMITS } from "./limits.js";
import { DEFAULT_MODEL_API, type ModelGate, startModelGate } from "./model-gate.js";
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

/**
 * The network of the deep agent's bubblewrap container: `model` (default), only the model's API, through the
 * model gate; `host`, the host's network shared (the agent's commands can reach it too).
 */
export type ClaudeBubblewrapNetwork = "model" | "host";

/** How {@link claudeCodeContainer} confines Claude Code. */
export interface ClaudeCodeContainerOptions {
  /** The workspace: mounted read-write at its own path, Claude Code's working directory. */
  workspace: string;
  /** `model` (default): only the model's API is reachable, through the gate; `host`: the host's network. */
  network?: ClaudeBubblewrapNetwork;
  /**
   * The model's API the gate forwards to (the `ANTHROPIC_BASE_URL` Claude Code would use); default
   * {@link DEFAULT_MODEL_API}. Unused with `network: "host"`.
   */
  modelBaseURL?: string | null;
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
  /** The model gate's unix socket (network `model`), null with the host's network. */
  readonly gateSocket: string | null;
}

/** The relay's port on the container's own loopback (each container has its own network namespace). */
export const MODEL_RELAY_PORT = 8787;
/**
 * The relay script, shipped beside this module (the build copies `assets/`). Resolved when a container is made,
 * not at import: a bundler or browser-like test environment may import this module where it is no file.
 */
const modelRelayScript = () => fileURLToPath(new URL("./assets/model-relay.mjs", import.meta.url));
/** Settings Claude Code honours that stop the traffic the gate would refuse anyway (telemetry, error reports, updates). */
const QUIET_CLAUDE_CODE: Readonly<Record<string, string>> = {
  DISABLE_TELEMETRY: "1",
  DISABLE_ERROR_REPORTING: "1",
  DISABLE_AUTOUPDATER: "1",
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
};
/** Proxy settings of the host, which would send Claude Code to a proxy the container cannot reach. */
const PROXY_VARIABLES = ["HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"];

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

/** The host's node (the one running karenina), which runs the relay: bound read-only unless a system file. */
function relayNode(): { node: string; readOnly: string[] } {
  const node = realpathSync(process.execPath);
  return { node, readOnly: isSystemPath(node) ? [] : [node] };
}

/** The gated container's extra mounts, its command (the relay, which runs Claude Code) and its environment. */
function throughGate(
  gate: ModelGate,
  command: readonly string[],
  env: Record<string, string>,
): { readOnly: string[]; command: string[] } {
  const { node, readOnly } = relayNode();
  const relay = modelRelayScript();
  for (const name of PROXY_VARIABLES) delete env[name];
  Object.assign(env, QUIET_CLAUDE_CODE, { ANTHROPIC_BASE_URL: `http://127.0.0.1:${MODEL_RELAY_PORT}` });
  return {
    readOnly: [...readOnly, relay, gate.socketPath],
    command: [node, relay, gate.socketPath, String(MODEL_RELAY_PORT), ...command],
  };
}

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
 * /usr and system libraries read-only, a few /etc files, a private /tmp holding a private home, the
 * environment the SDK gives (its key included, passed by environment, not on the command line) with HOME,
 * TMPDIR and PATH replaced; under prlimit's CPU, address-space (at least {@link CLAUDE_CODE_MIN_ADDRESS_SPACE})
 * and process limits, as root a pids cgroup. The network, by default (`model`), is only the container's own
 * loopback: a model gate ({@link startModelGate}) is started on the host for `modelBaseURL`, its socket bound
 * in, and Claude Code runs under a relay (the host's node running `assets/model-relay.mjs`) that listens on
 * 127.0.0.1:{@link MODEL_RELAY_PORT} and joins every connection to that socket, with `ANTHROPIC_BASE_URL`
 * pointing at it, the host's proxy variables unset and telemetry, error reports and updates off. With
 * `network: "host"`, the host's network is shared and Claude Code runs directly. When Claude Code exits, the
 * container's PID namespace ends, and every process in it (the relay included) with it.
 * @throws {ContainerBackendUnavailableError} when bwrap is missing or cannot make a container here.
 * @throws {ModelGateError} when the model's base URL is not an http(s) URL.
 */
export async function claudeCodeContainer(options: ClaudeCodeContainerOptions): Promise<ClaudeCodeContainer> {
  const bwrap = await bubblewrapProgram(options.bwrapPath);
  const limits: ContainerLimits = { ...DEFAULT_CONTAINER_LIMITS, ...options.limits };
  limits.memoryBytes = Math.max(limits.memoryBytes, CLAUDE_CODE_MIN_ADDRESS_SPACE);
  const asRoot = process.getuid?.() === 0;
  const gate =
    options.network === "host" ? null : await startModelGate(options.modelBaseURL ?? DEFAULT_MODEL_API);
  let cgroup: PidsCgroup | null = null;
  try {
    cgroup = asRoot ? await createPidsCgroup(limits.maxProcesses) : null;
  } catch (error) {
    await gate?.close();
    throw error;
  }
  const children: ChildProcess[] = [];
  let lastArgs: string[] | null = null;
  let released: Promise<void> | null = null;
  return {
    failure: null,
    gateSocket: gate?.socketPath ?? null,
    get lastArgs() {
      return lastArgs;
    },
    spawn(request) {
      const program = claudeProgramMounts(request);
      const env: Record<string, string> = {};
      for (const [name, value] of Object.entries(request.env)) if (value !== undefined) env[name] = value;
      env.PATH = SANDBOX_PATH;
      const direct = [program.command, ...request.args];
      const gated = gate === null ? null : throughGate(gate, direct, env);
      const args = [
        ...bubblewrapArgs(options.workspace, gate === null, {
          readOnly: [...program.readOnly, ...(gated?.readOnly ?? [])],
          home: CLAUDE_CODE_HOME,
          keepEnvironment: true,
        }),
        ...HOST_PATH_VARIABLES.flatMap((name) => ["--unsetenv", name]),
        "--",
        ...underLimits(limits, asRoot, gated?.command ?? direct),
      ];
      lastArgs = args;
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
        try {
          for (const child of children) {
            if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
          }
          await cgroup?.release();
        } finally {
          await gate?.close();
        }
      })();
      return released;
    },
  };
}
