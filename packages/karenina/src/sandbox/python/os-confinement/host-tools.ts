import { accessSync, constants } from "node:fs";

/** Absolute paths of the programs that confine a sandbox process, `null` where one is missing. */
export interface ConfinementTools {
  /** Sets no-new-privs, drops capabilities and sets the parent-death signal, then runs its command. */
  readonly setpriv: string | null;
  /** Starts its command in new namespaces (network, PID, mount, and user where not root). */
  readonly unshare: string | null;
  /** Sets resource limits, then runs its command. */
  readonly prlimit: string | null;
  /** The shell that builds the process's own root directory (see `own-root.ts`). */
  readonly sh: string | null;
  /** Makes the mount points of that root. */
  readonly mkdir: string | null;
  /** Mounts that root (tmpfs) and the host's directories it holds (read-only bind mounts). */
  readonly mount: string | null;
  /** Makes that root the process's `/`. */
  readonly chroot: string | null;
}

/** A machine without any of the programs: nothing can be confined. */
export const NO_CONFINEMENT_TOOLS: ConfinementTools = {
  setpriv: null,
  unshare: null,
  prlimit: null,
  sh: null,
  mkdir: null,
  mount: null,
  chroot: null,
};

/** Where util-linux, coreutils and the shell install. Searched instead of `PATH`, which the host's environment could point anywhere. */
export const TOOL_DIRECTORIES = ["/usr/bin", "/bin", "/usr/sbin", "/sbin"];

/** Finds the confinement programs of this machine. */
export function findConfinementTools(): ConfinementTools {
  const tools = { ...NO_CONFINEMENT_TOOLS };
  for (const name of Object.keys(tools) as (keyof ConfinementTools)[]) tools[name] = findTool(name);
  return tools;
}

function findTool(name: string): string | null {
  for (const directory of TOOL_DIRECTORIES) {
    const path = `${directory}/${name}`;
    try {
      accessSync(path, constants.X_OK);
      return path;
    } catch {
      // not here; try the next directory
    }
  }
  return null;
}
