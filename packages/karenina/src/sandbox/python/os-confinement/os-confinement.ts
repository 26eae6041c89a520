import { execFile } from "node:child_process";
import { debuglog } from "node:util";
import {
  type ConfinementPlan,
  candidatePlans,
  commandPrefix,
  describePlan,
  type SandboxConfinement,
  type SpawnConfinement,
  UNCONFINED,
} from "./confinement-plan.js";
import { SandboxConfinementError } from "./errors.js";
import {
  type ConfinementTools,
  findConfinementTools,
  NO_CONFINEMENT_TOOLS,
  TOOL_DIRECTORIES,
} from "./host-tools.js";
import { readableByOthers, rootLayout } from "./own-root.js";

const debug = debuglog("karenina");

/** The environment variable that decides what happens when a sandbox process cannot be fully confined. */
export const CONFINEMENT_VARIABLE = "KARENINA_SANDBOX_CONFINEMENT";

/** How sandbox processes are confined on one machine; see {@link createOsConfinement}. */
export interface OsConfinement {
  /** What is confined. Probed at the first call (a few short-lived processes), then cached. */
  report(): Promise<SandboxConfinement>;
  /**
   * The command line that starts `argv` (a program, by its absolute path, and its arguments) confined, as
   * `options` say. Where something cannot be confined it warns once (`process.emitWarning`), or, with
   * `KARENINA_SANDBOX_CONFINEMENT=require`, throws {@link SandboxConfinementError}.
   */
  wrap(argv: readonly string[], options: WrapOptions): Promise<string[]>;
}

/** What a confined process needs. */
export interface WrapOptions {
  /** The cap on its whole memory, in MB. */
  readonly memoryCapMb: number;
  /**
   * The files and directories it reads besides its program (a directory: its whole tree), so that its own
   * root directory, where it gets one, holds them.
   */
  readonly readPaths: readonly string[];
}

/** What the choice of a confinement depends on. */
export interface HostFacts {
  readonly platform: NodeJS.Platform;
  readonly isRoot: boolean;
  readonly tools: ConfinementTools;
  /** A program the probe runs confined, with `--version`, expecting {@link expectedVersion} (Node itself). */
  readonly node: string;
  readonly expectedVersion: string;
}

/** The facts of the machine this process runs on. */
export function machineFacts(): HostFacts {
  const linux = process.platform === "linux";
  return {
    platform: process.platform,
    isRoot: process.geteuid?.() === 0,
    tools: linux ? findConfinementTools() : NO_CONFINEMENT_TOOLS,
    node: process.execPath,
    expectedVersion: process.version,
  };
}

/**
 * Confinement by the operating system for the processes that run untrusted code, so that code that got out of
 * Pyodide and past Node's permission model still has no network, reaches no Unix socket of the host, cannot
 * signal other processes, cannot take more memory than its cap, and does not outlive its host. On Linux this
 * is util-linux's `unshare`, `setpriv`, `prlimit` and `mount`, with `sh`, `mkdir` and `chroot` (see
 * `commandPrefix`); the most confined plan that starts Node on this machine is used. Other systems, and Linux
 * without these programs, fall back to what is possible: one warning then names what is not confined.
 */
export function createOsConfinement(
  facts: HostFacts,
  warn: (message: string) => void = emitWarning,
): OsConfinement {
  let chosen: Promise<Chosen> | null = null;
  let warned = false;
  const choose = (): Promise<Chosen> => {
    chosen ??= choosePlan(facts);
    return chosen;
  };
  return {
    async report() {
      return (await choose()).report;
    },
    async wrap(argv, options) {
      const mode = confinementMode();
      const { plan, report } = await choose();
      const missing = unconfined(report);
      if (missing.length > 0) {
        if (mode === "require") throw new SandboxConfinementError(refusal(missing, report));
        if (!warned) warn(fallbackWarning(missing, report));
        warned = true;
      }
      const [program = facts.node] = argv;
      const spawn = spawnConfinement(plan, program, options.readPaths, options.memoryCapMb);
      if (plan.asNobody && !spawn.asNobody) {
        debug("sandbox process: runs as root (no capabilities), as not every user can read %j", [
          program,
          ...options.readPaths,
        ]);
      }
      return [...commandPrefix(plan, spawn), ...argv];
    },
  };
}

/** The code of the warning that a sandbox process is not fully confined. */
export const UNCONFINED_WARNING_CODE = "KARENINA_SANDBOX_UNCONFINED";

function emitWarning(message: string): void {
  process.emitWarning(message, { type: "KareninaSandboxWarning", code: UNCONFINED_WARNING_CODE });
}

let machine: OsConfinement | null = null;

/** The confinement of this machine, shared by every sandbox process of this process. */
export function machineConfinement(): OsConfinement {
  machine ??= createOsConfinement(machineFacts());
  return machine;
}

/**
 * What the operating system confines in the processes that run untrusted Python (Pyodide), on this machine:
 * network, Unix sockets, signals to other processes, memory, and death with the host. Probed once per process.
 * @example
 * const confinement = await sandboxConfinement();
 * typeof confinement.unixSockets; // "boolean"
 * // On Linux as root: { network: true, unixSockets: true, signals: true, memory: true, dieWithHost: true,
 * //   how: "own network, PID and mount namespaces (unshare, made as root); own read-only root ..." }
 */
export function sandboxConfinement(): Promise<SandboxConfinement> {
  return machineConfinement().report();
}

interface Chosen {
  readonly plan: ConfinementPlan;
  readonly report: SandboxConfinement;
}

/** How `program`, reading `readPaths`, is started under `plan`: its root, and whether it can run as nobody. */
function spawnConfinement(
  plan: ConfinementPlan,
  program: string,
  readPaths: readonly string[],
  memoryCapMb: number,
): SpawnConfinement {
  if (plan.ownRoot === null) return { memoryCapMb, root: null, asNobody: false };
  const programs = [plan.setpriv, plan.prlimit, program].filter((path) => path !== null);
  const root = rootLayout(programs, readPaths);
  return { memoryCapMb, root, asNobody: plan.asNobody && readableByOthers(root, program, readPaths) };
}

async function choosePlan(facts: HostFacts): Promise<Chosen> {
  if (facts.platform !== "linux") {
    return { plan: UNCONFINED, report: describePlan(UNCONFINED, [`${facts.platform} is not Linux`]) };
  }
  const failures = missingTools(facts.tools);
  for (const plan of candidatePlans(facts.tools, facts.isRoot)) {
    const failure = plan === UNCONFINED ? null : await tryPlan(plan, facts);
    if (failure === null) return { plan, report: describePlan(plan, failures) };
    failures.push(failure);
  }
  return { plan: UNCONFINED, report: describePlan(UNCONFINED, failures) };
}

/** Starts `node --version` under `plan`: `null` if it answered as expected, else why not. */
function tryPlan(plan: ConfinementPlan, facts: HostFacts): Promise<string | null> {
  let spawn: SpawnConfinement;
  try {
    spawn = { ...spawnConfinement(plan, facts.node, [], PROBE_MEMORY_CAP_MB), asNobody: plan.asNobody };
  } catch (error) {
    return Promise.resolve(`${planName(plan)} failed: ${(error as Error).message}`);
  }
  const [program = facts.node, ...args] = [...commandPrefix(plan, spawn), facts.node, "--version"];
  return new Promise((resolve) => {
    execFile(program, args, { env: {}, timeout: PROBE_TIMEOUT_MS }, (error, stdout, stderr) => {
      if (error === null && stdout.trim() === facts.expectedVersion) {
        resolve(null);
        return;
      }
      const reason =
        stderr.trim().split("\n")[0] || error?.message || `unexpected output ${JSON.stringify(stdout)}`;
      resolve(`${planName(plan)} failed: ${reason}`);
    });
  });
}

const PROBE_MEMORY_CAP_MB = 1024;
const PROBE_TIMEOUT_MS = 10_000;

function planName(plan: ConfinementPlan): string {
  const user = plan.namespaces === "in-user-namespace" ? " --user" : "";
  const mount = plan.ownRoot === null ? "" : " --mount";
  const setpriv = [plan.dropCapabilities ? "no capabilities" : null, plan.asNobody ? "as nobody" : null]
    .filter((option) => option !== null)
    .join(", ");
  const programs = [
    plan.unshare === null ? null : `unshare${user} --net --pid${mount}`,
    plan.ownRoot === null ? null : "own root (mount, chroot)",
    plan.setpriv === null ? null : `setpriv${setpriv === "" ? "" : ` (${setpriv})`}`,
    plan.prlimit === null ? null : "prlimit",
  ];
  return programs.filter((name) => name !== null).join(" + ");
}

function missingTools(tools: ConfinementTools): string[] {
  return Object.entries(tools)
    .filter(([, path]) => path === null)
    .map(([name]) => `${name} not found in ${TOOL_DIRECTORIES.join(", ")}`);
}

type Kind = "network" | "unixSockets" | "signals" | "memory" | "dieWithHost";

/** What each kind of confinement is called in messages, and what its absence allows. */
const KINDS: Record<Kind, { readonly name: string; readonly absence: string }> = {
  network: { name: "network", absence: "open network connections" },
  unixSockets: {
    name: "Unix sockets",
    absence: "connect to the host's Unix sockets (a Docker or database socket in /run, /var/run or /tmp)",
  },
  signals: { name: "signals", absence: "signal other processes of its user" },
  memory: { name: "memory", absence: "take memory outside the WebAssembly heap without limit" },
  dieWithHost: { name: "death with its host", absence: "keep running after its host is killed" },
};

/** The kinds of confinement `report` lacks. */
function unconfined(report: SandboxConfinement): Kind[] {
  return (Object.keys(KINDS) as Kind[]).filter((kind) => !report[kind]);
}

function names(missing: readonly Kind[]): string {
  return missing.map((kind) => KINDS[kind].name).join(", ");
}

function fallbackWarning(missing: readonly Kind[], report: SandboxConfinement): string {
  const could = missing.map((kind) => KINDS[kind].absence).join(", ");
  return `the Python sandbox's process is not confined by the operating system in: ${names(missing)}. Code that got out of Pyodide and past Node's permission model could ${could}. Confinement here: ${report.how}. Set ${CONFINEMENT_VARIABLE}=require to refuse to start sandboxes instead.`;
}

function refusal(missing: readonly Kind[], report: SandboxConfinement): string {
  return `the sandbox process cannot be confined by the operating system here in: ${names(missing)}, and ${CONFINEMENT_VARIABLE}=require (confinement here: ${report.how}); run on Linux with util-linux and network, PID, mount and user namespaces allowed, or unset ${CONFINEMENT_VARIABLE}`;
}

/** `KARENINA_SANDBOX_CONFINEMENT`: `warn` (the default) or `require`. */
function confinementMode(): "warn" | "require" {
  const value = process.env[CONFINEMENT_VARIABLE];
  if (value === undefined || value === "" || value === "warn") return "warn";
  if (value === "require") return "require";
  throw new SandboxConfinementError(
    `${CONFINEMENT_VARIABLE} is ${JSON.stringify(value)}; set it to "require" (refuse to start a sandbox process that is not fully confined) or "warn" (the default)`,
  );
}
