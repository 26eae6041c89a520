import { constants, lstatSync, readdirSync, realpathSync, type Stats, statSync } from "node:fs";
import { dirname, resolve, sep } from "node:path";
import { SandboxConfinementError } from "./errors.js";

/** The programs that give a sandbox process a root directory of its own. */
export interface RootTools {
  readonly sh: string;
  readonly mkdir: string;
  readonly mount: string;
  readonly chroot: string;
}

/**
 * The root directory of a sandbox process: an empty tmpfs that holds, each read-only at its own path, the
 * system's libraries, the device files and configuration Node needs, and the directories of the files the
 * process reads (Node itself, Pyodide, its own modules). Nothing else of the host is there: not its `/tmp`,
 * `/run`, `/var`, `/dev/shm`, home directories, `/proc` or `/sys`, and so none of the Unix sockets that live
 * in them.
 */
export interface RootLayout {
  /** An existing directory of the host, none of whose files the process reads, where the root is mounted first. */
  readonly stage: string;
  /** The host's directories bound into the root, each at its own path, none inside another. */
  readonly directories: readonly string[];
  /** The host's files bound into the root, each at its own path. */
  readonly files: readonly string[];
}

/**
 * The system's libraries: `/usr` and the library directories beside it (or links to them), where the dynamic
 * loader and the libraries Node links against live. `/bin` and `/sbin` are there only if a program that runs
 * in the root is.
 */
const SYSTEM_DIRECTORIES = ["/usr", "/lib", "/lib32", "/lib64", "/libx32"];

/**
 * What Node reads outside those: `/dev/null` (where a standard stream is closed) and `/dev/urandom`, the
 * dynamic linker's cache (libraries outside its default directories), and the time zone, so that local time
 * in the sandbox stays the host's.
 */
const SYSTEM_FILES = ["/dev/null", "/dev/urandom", "/etc/ld.so.cache", "/etc/localtime"];

/** Where the root may be mounted before the process enters it: the first that holds none of its files. */
const STAGE_CANDIDATES = ["/mnt", "/media", "/srv", "/opt", "/sys"];

/**
 * The root of a process that runs `programs` (the wrapping programs that run in it, then Node) and reads
 * `readPaths` (files and directories). A file is reachable through its directory, which is bound whole
 * (Node's permission model still limits reads to the files themselves). Paths that do not exist are left out.
 */
export function rootLayout(programs: readonly string[], readPaths: readonly string[]): RootLayout {
  const wanted = [...SYSTEM_DIRECTORIES.filter(isDirectory)];
  for (const path of [...programs, ...readPaths]) wanted.push(...directoriesToBind(resolve(path)));
  const directories = outermost(wanted);
  const files = SYSTEM_FILES.filter((file) => exists(file) && !directories.some((d) => contains(d, file)));
  const stage = STAGE_CANDIDATES.find(
    (candidate) =>
      isRealDirectory(candidate) &&
      ![...directories, ...files].some((path) => contains(candidate, path) || contains(path, candidate)),
  );
  if (stage === undefined) {
    throw new SandboxConfinementError(
      `none of ${STAGE_CANDIDATES.join(", ")} is a directory that holds none of the files the sandbox process reads, so its root directory cannot be built; make one of them such a directory`,
    );
  }
  return { stage, directories, files };
}

/**
 * The program and arguments that build `layout` in the process's mount namespace, then run the command that
 * follows them with the new root as `/` (and `/` as working directory). It needs the capabilities the
 * namespaces' root holds, so it runs before they are dropped; the command must drop them, as a process that
 * keeps `CAP_SYS_CHROOT` could leave a `chroot`.
 */
export function buildRootCommand(tools: RootTools, layout: RootLayout): string[] {
  const relative = (path: string): string => path.slice(1);
  const mountPoints = new Set(
    [...layout.directories, ...layout.files.map((file) => dirname(file))]
      .map(relative)
      .filter((d) => d !== ""),
  );
  return [
    tools.sh,
    "-c",
    BUILD_ROOT_SCRIPT,
    "karenina-sandbox-root",
    tools.mkdir,
    tools.mount,
    tools.chroot,
    layout.stage,
    ...counted([...mountPoints]),
    ...counted(layout.files.map(relative)),
    ...counted(layout.directories),
    ...counted(layout.files),
  ];
}

function counted(items: readonly string[]): string[] {
  return [String(items.length), ...items];
}

/**
 * Arguments: mkdir, mount, chroot, the stage, then four counted lists (the directories to make in the root,
 * relative; the empty files to make there, relative; the host's directories, then files, to bind there),
 * then the command. `mkdir` gets all its directories in one call, through `eval` of `"${1}" "${2}" ...`
 * (references to the arguments, never the paths themselves).
 *
 * Bind mounts are read-only, and directories `nosuid` and `nodev` too (files are device files, which `nodev`
 * would close). In a user namespace the kernel refuses to remount a bind mount without the `nosuid`, `nodev`
 * or `noexec` the host set on its source; a directory is then tried `noexec` as well, and where that fails
 * too the mount stays writable (by the host's user only, as the files are its own there). A failed remount
 * leaves its bind mount in place, under the next try. The root itself is read-only. The shell's `cd` sets
 * `PWD` and `OLDPWD` in the environment, which must reach the process empty.
 */
const BUILD_ROOT_SCRIPT = `set -eu
umask 022
mkdir=$1 mount=$2 chroot=$3 root=$4
shift 4
"$mount" -t tmpfs -o mode=0755,size=1m,nosuid,nodev karenina-sandbox-root "$root"
cd "$root"
count=$1
shift
operands= i=1
while [ "$i" -le "$count" ]; do operands="$operands \\"\\\${$i}\\""; i=$((i + 1)); done
[ "$count" -eq 0 ] || eval "\\"\\$mkdir\\" -p --$operands"
shift "$count"
count=$1
shift
while [ "$count" -gt 0 ]; do : >"$1"; shift; count=$((count - 1)); done
"$mount" -o remount,ro,nosuid,nodev "$root"
count=$1
shift
while [ "$count" -gt 0 ]; do
  "$mount" --bind -o ro,nosuid,nodev "$1" "$root$1" 2>/dev/null ||
    "$mount" --bind -o ro,nosuid,nodev,noexec "$1" "$root$1" 2>/dev/null ||
    "$mount" --bind "$1" "$root$1"
  shift
  count=$((count - 1))
done
count=$1
shift
while [ "$count" -gt 0 ]; do
  "$mount" --bind -o ro "$1" "$root$1" 2>/dev/null || "$mount" --bind "$1" "$root$1"
  shift
  count=$((count - 1))
done
cd /
unset OLDPWD PWD
exec "$chroot" "$root" "$@"`;

/**
 * Whether the user nobody, who owns none of them, can read `readPaths` (directories, whole) in `layout` and
 * run `program`: every directory from a bound directory down to them lets others in, and every file lets
 * others read it (run it, for `program`). Sockets, devices and links inside a directory are not looked at.
 */
export function readableByOthers(layout: RootLayout, program: string, readPaths: readonly string[]): boolean {
  const reachable = (path: string): boolean => {
    const bound = layout.directories.find((directory) => contains(directory, path));
    if (bound === undefined) return false;
    for (let directory = dirname(path); contains(bound, directory); directory = dirname(directory)) {
      if (!allows(statSync(directory), constants.S_IXOTH)) return false;
      if (directory === bound) break;
    }
    return true;
  };
  const readable = (path: string, stats: Stats): boolean => {
    if (stats.isDirectory()) {
      if (!allows(stats, constants.S_IROTH | constants.S_IXOTH)) return false;
      return readdirSync(path).every((entry) => {
        const inner = `${path}${sep}${entry}`;
        return readable(inner, lstatSync(inner));
      });
    }
    return !stats.isFile() || allows(stats, constants.S_IROTH);
  };
  try {
    const paths = readPaths.map((path) => resolve(path)).filter(exists);
    return (
      [program, ...paths].every(reachable) &&
      allows(statSync(program), constants.S_IROTH | constants.S_IXOTH) &&
      paths.every((path) => readable(path, statSync(path)))
    );
  } catch {
    return false; // changed while being looked at: do not rely on it
  }
}

function allows(stats: Stats, bits: number): boolean {
  return (stats.mode & bits) === bits;
}

/** What must be bound for `path` to be read at its own path and at its real one: its directory if a file. */
function directoriesToBind(path: string): string[] {
  let stats: Stats;
  let real: string;
  try {
    stats = statSync(path);
    real = realpathSync(path);
  } catch {
    return [];
  }
  const paths = path === real ? [path] : [path, real];
  return stats.isDirectory() ? paths : paths.map((file) => dirname(file));
}

/** `paths` without duplicates and without those inside another of them, sorted. */
function outermost(paths: readonly string[]): string[] {
  const sorted = [...new Set(paths)].sort();
  return sorted.filter((path) => !sorted.some((other) => other !== path && contains(other, path)));
}

/** Whether `path` is `directory` or inside it. */
function contains(directory: string, path: string): boolean {
  if (directory === "" || directory === "/") return true;
  return path === directory || path.startsWith(`${directory}/`);
}

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** A directory, not a link to one: a mount over a link would land on its target. */
function isRealDirectory(path: string): boolean {
  try {
    return lstatSync(path).isDirectory();
  } catch {
    return false;
  }
}
