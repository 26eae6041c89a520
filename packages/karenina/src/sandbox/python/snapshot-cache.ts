import { createHash } from "node:crypto";
import { lstatSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { debuglog } from "node:util";

const debug = debuglog("karenina");

/** Bumped when what a snapshot holds changes (the worker's `loadPyodide` options). */
const SNAPSHOT_FORMAT = 1;
const DIGEST_BYTES = 32;

/**
 * The directory where the memory image of a freshly started Pyodide is kept between processes, so that the
 * first sandbox of a command starts from it (about 1 s) instead of from nothing (about 2.3 s):
 * `KARENINA_CACHE_DIR`, else `$XDG_CACHE_HOME/karenina`, else `~/.cache/karenina`; `null` when
 * `KARENINA_SNAPSHOT_CACHE=off`.
 */
export function snapshotCacheDirectory(env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.KARENINA_SNAPSHOT_CACHE === "off") return null;
  if (env.KARENINA_CACHE_DIR) return env.KARENINA_CACHE_DIR;
  const base = env.XDG_CACHE_HOME || join(homedir(), ".cache");
  return join(base, "karenina");
}

/**
 * The file of the snapshot for this Pyodide (its directory and version) and this Node. None of karenina's Python
 * is in the key: the image is taken before any of it runs (the lockdown and the template layer reach each new
 * interpreter as text, from the `.py` files of this build), so a changed `.py` file never meets a stale image.
 */
export function snapshotCacheFile(
  directory: string,
  pyodideDirectory: string,
  pyodideVersion: string,
): string {
  const key = createHash("sha256")
    .update(JSON.stringify([SNAPSHOT_FORMAT, pyodideDirectory, pyodideVersion, process.version]))
    .digest("hex")
    .slice(0, 16);
  return join(directory, `pyodide-snapshot-${key}.bin`);
}

/**
 * The cached snapshot, or null. The image becomes the interpreter every sandbox starts from, so it is trusted
 * only in a directory and a file that belong to this user and that nobody else may write, and only when its
 * digest matches (a torn or damaged file is removed). The lockdown runs after it is loaded, as for a fresh
 * start.
 */
export function readCachedSnapshot(file: string): Uint8Array | null {
  try {
    if (!isPrivate(join(file, "..")) || !isPrivate(file)) return null;
    const stored = readFileSync(file);
    const digest = stored.subarray(0, DIGEST_BYTES);
    const image = stored.subarray(DIGEST_BYTES);
    if (!digest.equals(createHash("sha256").update(image).digest())) {
      debug("Python sandbox: removing the damaged snapshot cache %s", file);
      rmSync(file, { force: true });
      return null;
    }
    return new Uint8Array(image.buffer, image.byteOffset, image.byteLength);
  } catch {
    return null;
  }
}

/** Whether a path belongs to this user and nobody else may write it. */
function isPrivate(path: string): boolean {
  const stats = lstatSync(path);
  const uid = process.getuid?.();
  const isPrivate =
    (uid === undefined || stats.uid === uid) && (stats.mode & 0o022) === 0 && !stats.isSymbolicLink();
  if (!isPrivate) debug("Python sandbox: ignoring the snapshot cache %s: not private to this user", path);
  return isPrivate;
}

/**
 * Stores a snapshot, best effort: only in a directory private to this user, through a temporary file created
 * exclusively (never following a link left in its place), then renamed.
 */
export function writeCachedSnapshot(file: string, image: Uint8Array): void {
  const directory = join(file, "..");
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(directory, { recursive: true, mode: 0o700 });
    if (!isPrivate(directory)) return;
    const digest = createHash("sha256").update(image).digest();
    writeFileSync(temporary, Buffer.concat([digest, image]), { mode: 0o600, flag: "wx" });
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    debug("Python sandbox: could not keep the snapshot in %s: %s", directory, String(error));
  }
}
