/** Test helpers (not shipped) of the workspace tests. */
import { createHash } from "node:crypto";
import { lstat, readdir, readFile, readlink } from "node:fs/promises";
import { join, relative } from "node:path";

/** The error `run` rejects with, checked to be of the given class. */
export async function rejected<E extends Error>(
  errorClass: abstract new (...args: never[]) => E,
  run: () => Promise<unknown>,
): Promise<E> {
  try {
    await run();
  } catch (error) {
    if (error instanceof errorClass) return error;
    throw error;
  }
  throw new Error(`expected a ${errorClass.name} to be thrown`);
}

/**
 * A fingerprint of a directory tree — every entry's relative path, type and mode,
 * a SHA-256 of each file's bytes and each link's target — to show that a tree was left exactly as it was.
 */
export async function treeFingerprint(root: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const visit = async (dir: string) => {
    const stats = await lstat(dir);
    out[relative(root, dir) || "."] = `dir ${(stats.mode & 0o7777).toString(8)}`;
    for (const name of (await readdir(dir)).sort()) {
      const path = join(dir, name);
      const entry = await lstat(path);
      const mode = (entry.mode & 0o7777).toString(8);
      if (entry.isDirectory()) await visit(path);
      else if (entry.isSymbolicLink()) out[relative(root, path)] = `link -> ${await readlink(path)}`;
      else {
        const digest = createHash("sha256").update(await readFile(path)).digest("hex");
        out[relative(root, path)] = `file ${mode} ${digest}`;
      }
    }
  };
  await visit(root);
  return out;
}
