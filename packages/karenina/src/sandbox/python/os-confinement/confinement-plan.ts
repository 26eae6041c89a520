import type { ConfinementTools } from "./host-tools.js";
import { buildRootCommand, type RootLayout, type RootTools } from "./own-root.js";

/** What the operating system confines in a sandbox process, on this machine. */
export interface SandboxConfinement {
  /** No network: the process has a network namespace of its own, whose only interface (loopback) is down. */
  readonly network: boolean;
  /**
   * It can reach no Unix socket of the host: its root directory, of its own, holds only the system's libraries
   * and the directories of the files it reads, not the host's `/tmp`, `/run`, `/var/run`, `/dev/shm` or home
   * directories where sockets live; abstract sockets belong to its network namespace.
   */
  readonly unixSockets: boolean;
  /** It can see and signal no process but its own: it has a PID namespace of its own. */
  readonly signals: boolean;
  /** All its memory (JavaScript heap, WebAssembly memory, off-heap buffers) is capped, by RLIMIT_DATA. */
  readonly memory: boolean;
  /** It is killed when its host dies, even by SIGKILL, by a parent-death signal. */
  readonly dieWithHost: boolean;
  /** How, in words, and why whatever is not confined is not. */
  readonly how: string;
}

/**
 * Which namespaces a plan starts the process in: none, or network + PID (+ mount, with an own root), created
 * as root or in a user namespace.
 */
export type Namespaces = "none" | "as-root" | "in-user-namespace";

/** One way of starting a sandbox process: the programs that wrap its command, `null` where not used. */
export interface ConfinementPlan {
  readonly namespaces: Namespaces;
  readonly unshare: string | null;
  readonly setpriv: string | null;
  readonly prlimit: string | null;
  /** Whether setpriv takes every capability away (the process runs as root, or as root of its user namespace). */
  readonly dropCapabilities: boolean;
  /** The programs that give the process a root directory of its own (see `own-root.ts`), `null` where not used. */
  readonly ownRoot: RootTools | null;
  /**
   * Whether the process runs as the user nobody (65534) rather than root, where the files it reads are
   * readable by every user: then the host's files it sees are not its own (as root, it would own them).
   */
  readonly asNobody: boolean;
}

/** How one process is started under a plan. */
export interface SpawnConfinement {
  /** The cap on its whole memory, in MB. */
  readonly memoryCapMb: number;
  /** Its root directory, where the plan gives it its own. */
  readonly root: RootLayout | null;
  /** Whether it runs as nobody (only under a plan that allows it). */
  readonly asNobody: boolean;
}

/** The plan that starts the command as it is. */
export const UNCONFINED: ConfinementPlan = {
  namespaces: "none",
  unshare: null,
  setpriv: null,
  prlimit: null,
  dropCapabilities: false,
  ownRoot: null,
  asNobody: false,
};

/** The user and group nobody, which own no file of the host's and no process. */
export const NOBODY_ID = 65534;

/**
 * Root keeps uid 0 (so that it still reads the files it owns) but gains no capability at `exec` (`noroot`), and
 * can never get any back: no capability to inherit or to keep, an empty bounding set, locked security bits.
 * Without capabilities, root of the sandbox cannot enter the host's namespaces again (`setns`).
 */
const DROP_CAPABILITIES = [
  "--inh-caps=-all",
  "--ambient-caps=-all",
  "--bounding-set=-all",
  "--securebits=+noroot,+noroot_locked,+no_setuid_fixup,+no_setuid_fixup_locked,+keep_caps_locked",
];

const MIB = 1024 * 1024;

/**
 * The plans worth trying on Linux, most confined first: network and PID namespaces (as root, else in a user
 * namespace), with an own root directory (as nobody, then as root, where the host is root) and without, with
 * and without dropping capabilities, then without namespaces. The last plan starts the command as it is and
 * always works. An own root needs capabilities dropped (see `buildRootCommand`).
 */
export function candidatePlans(tools: ConfinementTools, isRoot: boolean): ConfinementPlan[] {
  const { setpriv, prlimit } = tools;
  const ownRoot = rootTools(tools);
  const layouts: { namespaces: Namespaces; unshare: string | null; rootInside: boolean }[] = [];
  if (tools.unshare !== null) {
    if (isRoot) layouts.push({ namespaces: "as-root", unshare: tools.unshare, rootInside: true });
    layouts.push({ namespaces: "in-user-namespace", unshare: tools.unshare, rootInside: true });
  }
  layouts.push({ namespaces: "none", unshare: null, rootInside: isRoot });
  const plans: ConfinementPlan[] = [];
  const plain = { ownRoot: null, asNobody: false };
  for (const { namespaces, unshare, rootInside } of layouts) {
    if (rootInside && setpriv !== null) {
      const confined = { namespaces, unshare, setpriv, prlimit, dropCapabilities: true };
      if (unshare !== null && ownRoot !== null) {
        if (namespaces === "as-root") plans.push({ ...confined, ownRoot, asNobody: true });
        plans.push({ ...confined, ownRoot, asNobody: false });
      }
      plans.push({ ...confined, ...plain });
    }
    plans.push({ namespaces, unshare, setpriv, prlimit, dropCapabilities: false, ...plain });
  }
  if (setpriv !== null || prlimit !== null) plans.push(UNCONFINED);
  return plans;
}

function rootTools(tools: ConfinementTools): RootTools | null {
  const { sh, mkdir, mount, chroot } = tools;
  if (sh === null || mkdir === null || mount === null || chroot === null) return null;
  return { sh, mkdir, mount, chroot };
}

/**
 * The programs, with their options, that start a command confined by `plan`; the command follows them. The
 * host starts the first one, whose process is the one it kills (on a timeout, with SIGKILL):
 * - `setpriv --pdeathsig SIGKILL`: that process is killed when the host dies;
 * - `unshare --net --pid [--mount] --fork --kill-child=SIGKILL`: it makes the namespaces, forks the process
 *   that becomes their PID 1, and has the kernel kill it with SIGKILL when unshare itself dies; once PID 1 is
 *   gone, the kernel kills everything else in the PID namespace;
 * - with an own root, `sh -c <script>` (see `buildRootCommand`) mounts it in the private mount namespace,
 *   then `chroot`s into it;
 * - `setpriv --no-new-privs --pdeathsig SIGKILL` (and no capabilities, and the user nobody where chosen):
 *   the death signal again, as the one unshare set does not survive a change of credentials;
 * - `prlimit --data --core=0`: the memory cap (RLIMIT_DATA: private writable memory, which is what V8 commits;
 *   RLIMIT_AS would count the many gigabytes V8 reserves, unbacked, around every WebAssembly memory), and no
 *   core dump.
 * Each of them `exec`s the next, so the IPC channel (an inherited descriptor, named by `NODE_CHANNEL_FD` in
 * the environment they pass on) reaches the sandbox process as it would directly.
 */
export function commandPrefix(plan: ConfinementPlan, spawn: SpawnConfinement): string[] {
  const prefix: string[] = [];
  if (plan.unshare !== null) {
    if (plan.setpriv !== null) prefix.push(plan.setpriv, "--pdeathsig", "SIGKILL", "--");
    const user = plan.namespaces === "in-user-namespace" ? ["--user", "--map-root-user"] : [];
    const mount = plan.ownRoot !== null ? ["--mount", "--propagation=private"] : [];
    prefix.push(plan.unshare, ...user, "--net", "--pid", ...mount, "--fork", "--kill-child=SIGKILL", "--");
  }
  if (plan.ownRoot !== null && spawn.root !== null)
    prefix.push(...buildRootCommand(plan.ownRoot, spawn.root));
  if (plan.setpriv !== null) {
    const capabilities = plan.dropCapabilities ? DROP_CAPABILITIES : [];
    const nobody =
      plan.asNobody && spawn.asNobody
        ? [`--reuid=${NOBODY_ID}`, `--regid=${NOBODY_ID}`, "--clear-groups"]
        : [];
    prefix.push(plan.setpriv, "--no-new-privs", "--pdeathsig", "SIGKILL", ...capabilities, ...nobody, "--");
  }
  if (plan.prlimit !== null)
    prefix.push(plan.prlimit, `--data=${Math.round(spawn.memoryCapMb * MIB)}`, "--core=0", "--");
  return prefix;
}

/** What `plan` confines; `failures` says why the better plans were not used. */
export function describePlan(plan: ConfinementPlan, failures: readonly string[]): SandboxConfinement {
  const inNamespaces = plan.namespaces !== "none";
  const parts: string[] = [];
  if (inNamespaces) {
    const as = plan.namespaces === "as-root" ? "made as root" : "made in a user namespace";
    const namespaces = plan.ownRoot !== null ? "network, PID and mount" : "network and PID";
    parts.push(`own ${namespaces} namespaces (unshare, ${as})`);
  }
  if (plan.ownRoot !== null) {
    parts.push(
      "own read-only root directory holding only /usr, /lib*, /dev/null, /dev/urandom, the dynamic linker's cache, the time zone and the directories of the files it reads, nothing else of the host's (chroot, in the mount namespace)",
    );
  }
  if (plan.setpriv !== null) {
    const capabilities = plan.dropCapabilities ? ", no capabilities" : "";
    const nobody = plan.asNobody ? ", as user nobody where every user can read its files" : "";
    parts.push(`no new privileges${capabilities}${nobody}, killed with its host (setpriv)`);
  }
  if (plan.prlimit !== null) parts.push("memory capped by RLIMIT_DATA (prlimit)");
  const reasons = failures.join("; ");
  let how = parts.length === 0 ? "not confined" : parts.join("; ");
  if (failures.length > 0) how = parts.length === 0 ? `${how}: ${reasons}` : `${how}; not used: ${reasons}`;
  return {
    network: inNamespaces,
    unixSockets: inNamespaces && plan.ownRoot !== null,
    signals: inNamespaces,
    memory: plan.prlimit !== null,
    dieWithHost: plan.setpriv !== null,
    how,
  };
}
