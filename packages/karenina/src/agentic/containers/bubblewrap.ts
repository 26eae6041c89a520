import { execFile } from "node:child_process";
import { accessSync, constants as fsConstants, lstatSync, readlinkSync } from "node:fs";
import { constants as osConstants, tmpdir } from "node:os";
import { delimiter, isAbsolute, join } from "node:path";
import { promisify } from "node:util";
import { type CommandRunner, type RunCommandOutput, runProcess } from "../tools/index.js";
import { ContainerBackendUnavailableError } from "./errors.js";
import { type ContainerLimits, DEFAULT_CONTAINER_LIMITS, limitReached } from "./limits.js";
import { createPidsCgroup, pidsCgroupAvailable } from "./pids-cgroup.js";

const run = promisify(execFile);

/** How {@link bubblewrapRunner} confines commands. */
export interface BubblewrapOptions {
  /** Share the host's network (`--share-net`); default false: no network at all, not even loopback's. */
  network?: boolean;
  /** CPU time, address space and process count of each command; {@link DEFAULT_CONTAINER_LIMITS} by default. */
  limits?: Partial<ContainerLimits>;
  /** The `bwrap` program; default the first `bwrap` on PATH. */
  bwrapPath?: string;
}

/** The program inside the container that sets the resource limits, then runs the command in its place. */
const PRLIMIT = "/usr/bin/prlimit";
/** The PATH inside the container. */
export const SANDBOX_PATH = "/usr/local/bin:/usr/bin:/bin";
/** Top-level system directories: bound read-only when they are directories, recreated when they are links. */
const SYSTEM_DIRS = ["/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"];
/** The few files of /etc programs need; /etc itself (shadow, keys, ...) stays out. */
const ETC_ENTRIES = [
  "/etc/alternatives",
  "/etc/ld.so.cache",
  "/etc/ld.so.conf",
  "/etc/ld.so.conf.d",
  "/etc/passwd",
  "/etc/group",
  "/etc/nsswitch.conf",
  "/etc/localtime",
  "/etc/ssl",
  "/etc/ca-certificates",
];
/** Added when the network is shared, so that names resolve. */
const NETWORK_ETC_ENTRIES = ["/etc/hosts", "/etc/resolv.conf", "/etc/host.conf", "/etc/gai.conf"];
/** Moves the shell into the cgroup named by $1, then becomes the rest of its argv (bwrap). */
const JOIN_CGROUP_AND_EXEC = 'echo $$ > "$1" && shift && exec "$@"';

function systemBinds(): string[] {
  const args = ["--ro-bind", "/usr", "/usr"];
  for (const dir of SYSTEM_DIRS) {
    let stat: ReturnType<typeof lstatSync>;
    try {
      stat = lstatSync(dir);
    } catch {
      continue;
    }
    if (stat.isSymbolicLink()) args.push("--symlink", readlinkSync(dir), dir);
    else if (stat.isDirectory()) args.push("--ro-bind", dir, dir);
  }
  return args;
}

/** What {@link bubblewrapArgs} adds for a long-lived program (the deep agent's Claude Code) rather than a command. */
export interface BubblewrapExtras {
  /** Host paths bound read-only at their own path (the program and its package files). */
  readOnly?: readonly string[];
  /** A private home made inside the container's /tmp (removed with it); default the workspace. */
  home?: string;
  /** Keep the environment bwrap is started with instead of clearing it (PATH, HOME, TMPDIR, LANG are still set). */
  keepEnvironment?: boolean;
}

/**
 * bwrap's arguments for a command in `workspace` (before `--` and the command): every namespace unshared
 * (no network unless `network`), the host's /usr and system libraries read-only, a few /etc files, a
 * private /proc, /dev and /tmp, no home, the workspace bound read-write at its own path and the working
 * directory, capabilities dropped, a clean environment, killed when its parent dies. `extras` adds read-only
 * paths, a private home under /tmp, and can keep the environment (so that secrets need not be on bwrap's
 * command line).
 */
export function bubblewrapArgs(workspace: string, network: boolean, extras: BubblewrapExtras = {}): string[] {
  const etc = network ? [...ETC_ENTRIES, ...NETWORK_ETC_ENTRIES] : ETC_ENTRIES;
  const home = extras.home ?? workspace;
  return [
    "--unshare-all",
    ...(network ? ["--share-net"] : []),
    "--die-with-parent",
    "--new-session",
    "--cap-drop",
    "ALL",
    ...systemBinds(),
    ...etc.flatMap((entry) => ["--ro-bind-try", entry, entry]),
    "--proc",
    "/proc",
    "--dev",
    "/dev",
    "--tmpfs",
    "/tmp",
    ...(extras.home === undefined ? [] : ["--dir", extras.home]),
    ...(extras.readOnly ?? []).flatMap((path) => ["--ro-bind", path, path]),
    "--bind",
    workspace,
    workspace,
    "--chdir",
    workspace,
    ...(extras.keepEnvironment === true ? [] : ["--clearenv"]),
    "--setenv",
    "PATH",
    SANDBOX_PATH,
    "--setenv",
    "HOME",
    home,
    "--setenv",
    "TMPDIR",
    "/tmp",
    "--setenv",
    "LANG",
    "C.UTF-8",
  ];
}

/** The first executable `name` on `path` (default: this process's PATH), or null. */
export function onPath(name: string, path: string | undefined = process.env.PATH): string | null {
  for (const dir of (path ?? "").split(delimiter)) {
    if (dir === "") continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, fsConstants.X_OK);
      return candidate;
    } catch {
      // Not here.
    }
  }
  return null;
}

const probes = new Map<string, Promise<string>>();

/**
 * Checks once per program that bwrap can make a container here with prlimit inside (and, as root, that a pids
 * cgroup can be made); its absolute path.
 * @throws {ContainerBackendUnavailableError} when it cannot.
 */
export function bubblewrapProgram(bwrapPath: string | undefined): Promise<string> {
  const key = bwrapPath ?? "";
  let found = probes.get(key);
  if (found === undefined) {
    found = (async () => {
      const path =
        bwrapPath === undefined ? onPath("bwrap") : isAbsolute(bwrapPath) ? bwrapPath : onPath(bwrapPath);
      if (path === null) {
        throw new ContainerBackendUnavailableError(
          "bubblewrap",
          "no bwrap program on PATH; install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap) or choose another backend",
        );
      }
      try {
        await run(path, [...bubblewrapArgs(tmpdir(), false), "--", PRLIMIT, "--version"], {
          timeout: 10_000,
        });
      } catch (error) {
        const detail = (error as { stderr?: string }).stderr?.trim() || (error as Error).message;
        throw new ContainerBackendUnavailableError(
          "bubblewrap",
          `${path} cannot make a container here (${detail}); user namespaces and ${PRLIMIT} are needed`,
        );
      }
      if (process.getuid?.() === 0 && !(await pidsCgroupAvailable())) {
        throw new ContainerBackendUnavailableError(
          "bubblewrap",
          "karenina runs as root, for whom the kernel does not apply the process-count limit (RLIMIT_NPROC), " +
            "and no writable pids cgroup was found: run karenina as another user, or where /sys/fs/cgroup is writable",
        );
      }
      return path;
    })();
    probes.set(key, found);
    // A failed probe is asked again next time (bwrap may be installed meanwhile).
    found.catch(() => probes.delete(key));
  }
  return found;
}

/**
 * `command` run by prlimit under `limits`: CPU seconds, address space, no core files, and (not as root, where
 * the kernel ignores it and a pids cgroup is used instead) the process count.
 */
export function underLimits(limits: ContainerLimits, asRoot: boolean, command: readonly string[]): string[] {
  return [
    PRLIMIT,
    `--cpu=${limits.cpuSeconds}:${limits.cpuSeconds + 1}`,
    `--as=${limits.memoryBytes}`,
    "--core=0",
    ...(asRoot ? [] : [`--nproc=${limits.maxProcesses}`]),
    "--",
    ...command,
  ];
}

/** The program and arguments that start bwrap with `argv`, first moved into `cgroup` when there is one. */
export function bwrapLaunch(
  bwrap: string,
  argv: readonly string[],
  cgroup: { procsFile: string } | null,
): { file: string; args: string[] } {
  return cgroup === null
    ? { file: bwrap, args: [...argv] }
    : { file: "/bin/sh", args: ["-c", JOIN_CGROUP_AND_EXEC, "sh", cgroup.procsFile, bwrap, ...argv] };
}

/** Exit codes above 128 from bwrap mean its command was killed by signal (code - 128). */
function withSignal(output: RunCommandOutput): RunCommandOutput {
  if (output.signal !== null || output.exit_code === null || output.exit_code <= 128) return output;
  const number = output.exit_code - 128;
  const name = Object.entries(osConstants.signals).find(([, value]) => value === number)?.[0];
  return name === undefined ? output : { ...output, exit_code: null, signal: name };
}

/**
 * The bubblewrap backend (Linux, daemonless): each command runs in a fresh `bwrap` container made by
 * {@link bubblewrapArgs}, under `prlimit` limits of CPU time and address space, and of processes
 * (RLIMIT_NPROC; as root, where the kernel ignores it, a pids cgroup instead). After the command, and after
 * the time limit, every process of the container is killed. Checks first that bwrap works here.
 * @throws {ContainerBackendUnavailableError} when bwrap is missing or cannot make a container here.
 */
export async function bubblewrapRunner(options: BubblewrapOptions = {}): Promise<CommandRunner> {
  const bwrap = await bubblewrapProgram(options.bwrapPath);
  const limits: ContainerLimits = { ...DEFAULT_CONTAINER_LIMITS, ...options.limits };
  const network = options.network === true;
  const asRoot = process.getuid?.() === 0;
  const memoryMb = Math.round(limits.memoryBytes / 1024 ** 2);
  const runner: CommandRunner = {
    name: "bubblewrap",
    sandboxed: true,
    description:
      "It runs in a bubblewrap container: the workspace is writable, the system read-only, nothing else of the " +
      `host is visible, ${network ? "the network is shared" : "there is no network"}; limits: ` +
      `${limits.cpuSeconds} s of CPU, ${memoryMb} MB of memory, ${limits.maxProcesses} processes.`,
    async run(workspace, input, runLimits, signal) {
      const cgroup = asRoot ? await createPidsCgroup(limits.maxProcesses) : null;
      try {
        const inner = underLimits(limits, asRoot, [input.command, ...(input.args ?? [])]);
        const launch = bwrapLaunch(bwrap, [...bubblewrapArgs(workspace, network), "--", ...inner], cgroup);
        const output = withSignal(
          await runProcess(
            { ...launch, cwd: workspace, env: { PATH: SANDBOX_PATH }, shownAs: input.command },
            runLimits,
            signal,
          ),
        );
        const hit = limitReached(output, limits, runLimits.commandTimeoutMs);
        return hit === null ? output : { ...output, ...hit };
      } finally {
        await cgroup?.release();
      }
    },
  };
  return Object.freeze(runner);
}
