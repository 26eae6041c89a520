import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync, realpathSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { debuglog } from "node:util";
import { bundledSource } from "../source-bundle.js";
import { machineConfinement, type OsConfinement, sandboxMemoryCapMb } from "./os-confinement/index.js";

const debug = debuglog("karenina");

/** How a sandbox process is started. */
export interface SandboxProcessOptions {
  /** Cap on the process's JavaScript heap (V8 old generation), in MB. WebAssembly memory is not part of it. */
  readonly jsHeapLimitMb: number;
  /** Files and directories the process may read besides its own modules (a directory grants its whole tree). */
  readonly readPaths: readonly string[];
  /**
   * Cap on all the process's memory (JavaScript heap, WebAssembly memory, buffers), in MB, where the operating
   * system can enforce one. Default: `sandboxMemoryCapMb(64)`, 1024 MB.
   */
  readonly memoryCapMb?: number;
  /** How the operating system confines the process. Default: this machine's (`machineConfinement()`). */
  readonly confinement?: OsConfinement;
}

/**
 * The argument that marks the processes started for the host whose PID is `hostPid` (it ends their command
 * line, where tools such as `ps` show it), so that they can be found, for example to check that none outlived
 * its host.
 */
export function sandboxProcessMarker(hostPid: number): string {
  return `karenina-sandbox-of:${hostPid}`;
}

/**
 * The flag that turns on Node's permission model on the running Node (`--permission` from Node 22.13 and 23.5,
 * `--experimental-permission` before), or `null` where Node has none (before 20).
 */
export const PERMISSION_FLAG: string | null = permissionFlag();

/**
 * Starts `entry` in a Node child process that holds nothing worth stealing: an empty environment, an IPC
 * channel (`serialization: "advanced"`, so binary data crosses as is) as its only link to the host, and, where
 * Node has a permission model, the right to read only its own modules and `readPaths`: no file-system write,
 * no child process, no worker thread, no native addon, no WASI. The process's standard input and output go nowhere;
 * its standard error is a pipe the caller may read (Node's own fatal errors land there).
 *
 * The operating system confines the process too, where it can (see `createOsConfinement`): on Linux it gets
 * network, PID and mount namespaces of its own (no network, no other process to signal), a root directory of
 * its own that holds only the system's programs and libraries and the directories of the files it reads (no
 * Unix socket of the host), no capabilities (and, where the host is root, the user nobody), a cap on its
 * whole memory, and it dies with the host, even when the host is killed with SIGKILL. The returned child is
 * then the first of the wrapping programs, which `kill("SIGKILL")` ends along with the Node process.
 *
 * A built `.js` entry is run as it is, with read access to the modules it imports by relative paths. A
 * `.ts` entry (Vitest, tsx) is bundled by tsx's esbuild in this process and handed to the child as `--eval`
 * code, as a loader such as tsx's cannot run in the child: loader hooks need a worker thread, and esbuild
 * a child process.
 *
 * The entry should import packages dynamically, by the absolute URL of a file under `readPaths`: resolving a
 * package name makes Node walk `node_modules` and follow its symlinks, which it may not read.
 *
 * Every process started here is killed when the host process exits.
 */
export async function spawnSandboxProcess(entry: URL, options: SandboxProcessOptions): Promise<ChildProcess> {
  const confinement = options.confinement ?? machineConfinement();
  const memoryCapMb = options.memoryCapMb ?? sandboxMemoryCapMb(64);
  // The first call probes the machine's confinement, while the entry is being bundled.
  const [node] = await Promise.all([nodeArguments(fileURLToPath(entry), options), confinement.report()]);
  const argv = [process.execPath, ...node.args, sandboxProcessMarker(process.pid)];
  const wrapOptions = { memoryCapMb, readPaths: node.readPaths };
  const [program = process.execPath, ...args] = await confinement.wrap(argv, wrapOptions);
  const child = spawn(program, args, {
    env: {},
    serialization: "advanced",
    stdio: ["ignore", "ignore", "pipe", "ipc"],
  });
  killOnExit(child);
  return child;
}

/**
 * Node's options and the code to run (the entry bundled as `--eval` code, or the built entry's own file),
 * and the files and directories the process reads.
 */
async function nodeArguments(
  entryPath: string,
  options: SandboxProcessOptions,
): Promise<{ readonly args: string[]; readonly readPaths: readonly string[] }> {
  if (entryPath.endsWith(".ts")) {
    const execArgv = sandboxExecArgv(options.readPaths, options.jsHeapLimitMb);
    const args = [...execArgv, "--input-type=module", "--eval", await bundledSource(entryPath, "by-name")];
    return { args, readPaths: options.readPaths };
  }
  const ownModules = localModuleGraph(realpathSync(entryPath));
  const readPaths = [...ownModules, ...options.readPaths];
  const execArgv = sandboxExecArgv(readPaths, options.jsHeapLimitMb);
  return { args: [...execArgv, ownModules[0] as string], readPaths };
}

/**
 * The Node options of a sandbox process: the heap cap, no code generation from strings (`eval`, `Function`:
 * the realm lockdown refuses them too, this makes V8 refuse them from the start), and the permission model's
 * flags where Node has one.
 */
function sandboxExecArgv(readPaths: readonly string[], jsHeapLimitMb: number): string[] {
  const execArgv = [`--max-old-space-size=${jsHeapLimitMb}`, "--disallow-code-generation-from-strings"];
  if (PERMISSION_FLAG === null) {
    debug(
      "Python sandbox: Node %s has no permission model; the sandbox process gets an empty environment, but no file-system, child-process or worker restrictions",
      process.version,
    );
    return execArgv;
  }
  // The permission model is experimental on Node 20 and says so on every start.
  if (process.allowedNodeEnvironmentFlags.has("--disable-warning")) {
    execArgv.push("--disable-warning=ExperimentalWarning");
  }
  return [...execArgv, PERMISSION_FLAG, ...readPaths.map((path) => `--allow-fs-read=${path}`)];
}

function permissionFlag(): string | null {
  const flags = process.allowedNodeEnvironmentFlags;
  if (flags.has("--permission")) return "--permission";
  if (flags.has("--experimental-permission")) return "--experimental-permission";
  return null;
}

/**
 * The entry module and the modules it imports, transitively, by relative specifiers (`./x.js`): the library's
 * own compiled files the process must read. Package imports are the caller's `readPaths`.
 */
function localModuleGraph(entryPath: string): string[] {
  const found = new Set<string>();
  const pending = [entryPath];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (found.has(file)) continue;
    found.add(file);
    const source = readFileSync(file, "utf8");
    for (const [, specifier] of source.matchAll(RELATIVE_IMPORT)) {
      pending.push(resolve(dirname(file), specifier as string));
    }
  }
  return [...found];
}

/** `import ... from "./x.js"`, `export ... from "../y.js"` and `import "./z.js"` at the start of a line. */
const RELATIVE_IMPORT = /^\s*(?:import|export)\b[^;"'`]*["'](\.{1,2}\/[^"']+)["']/gm;

const live = new Set<ChildProcess>();

function killOnExit(child: ChildProcess): void {
  if (live.size === 0) process.once("exit", killAll);
  live.add(child);
  child.once("exit", () => {
    live.delete(child);
    if (live.size === 0) process.off("exit", killAll);
  });
}

function killAll(): void {
  for (const child of live) child.kill("SIGKILL");
}
