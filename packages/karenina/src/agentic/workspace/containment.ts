import { realpath } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { WorkspaceEscapeError } from "./errors.js";
import { isInside, lexicalEscape } from "./paths.js";

const MISSING = new Set(["ENOENT", "ENOTDIR"]);

/**
 * The real path of `path` with every symbolic link followed; for a path that does not exist (yet), the real
 * path of its deepest existing ancestor joined with the rest.
 */
export async function realPathAllowingMissing(path: string): Promise<string> {
  const rest: string[] = [];
  let current = resolve(path);
  for (;;) {
    try {
      return join(await realpath(current), ...rest.reverse());
    } catch (error) {
      const parent = dirname(current);
      if (!MISSING.has((error as NodeJS.ErrnoException).code ?? "") || parent === current) throw error;
      rest.push(basename(current));
      current = parent;
    }
  }
}

/**
 * Resolves `requested` (relative to `directory`, or absolute) and checks that it stays inside `directory`:
 * lexically, and again after following symbolic links (of the path, or of its deepest existing ancestor when it
 * does not exist yet). Returns the absolute path; throws {@link WorkspaceEscapeError} naming `subject` otherwise.
 *
 * This is a check at one moment, not a sandbox: a link swapped in afterwards is not seen.
 */
export async function confinedPath(directory: string, requested: string, subject: string): Promise<string> {
  const boundary = resolve(directory);
  const how = lexicalEscape(boundary, requested);
  if (how !== null) throw new WorkspaceEscapeError(subject, requested, boundary, how);
  const path = resolve(boundary, requested);
  const [realBoundary, real] = await Promise.all([realpath(boundary), realPathAllowingMissing(path)]);
  if (!isInside(realBoundary, real)) {
    throw new WorkspaceEscapeError(
      subject,
      requested,
      boundary,
      `it resolves through a symbolic link to ${real}, outside it`,
    );
  }
  return path;
}
