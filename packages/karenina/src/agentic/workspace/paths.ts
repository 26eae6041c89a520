/**
 * Pure path logic of workspaces: working-directory names (seed 002 §2) and whether a path stays inside a
 * directory. Nothing here touches the file system.
 */
import { isAbsolute, posix, relative, resolve, sep } from "node:path";
import { localTimestamp } from "../../results/index.js";

/** `YYYYMMDDTHHMMSS` in local time, as Python's `strftime("%Y%m%dT%H%M%S")` writes it. */
export function runTimestamp(date: Date): string {
  return localTimestamp(date).replace(/[-:]/g, "").replace(" ", "T");
}

/**
 * The unique suffix of a working directory (seed 002 §2): `run_<timestamp>_pid<pid>`, then `_rep<N>` when the
 * task is a replicate.
 */
export function runSuffix(date: Date, pid: number, replicate: number | null): string {
  const suffix = `run_${runTimestamp(date)}_pid${pid}`;
  return replicate === null ? suffix : `${suffix}_rep${replicate}`;
}

/**
 * The name tried at the `attempt`-th try (1-based) for a working directory: the seed's name first, then the
 * same with `_2`, `_3`, ... when another task of this process took it in the same second.
 */
export function candidateName(name: string, attempt: number): string {
  return attempt === 1 ? name : `${name}_${attempt}`;
}

/** Keeps ASCII letters, digits and `-_.`, replaces anything else with `_`, trims `._` at both ends; `unknown` if empty. */
export function safePathComponent(text: string): string {
  const replaced = text.replace(/[^A-Za-z0-9._-]/g, "_").replace(/^[._]+|[._]+$/g, "");
  return replaced === "" ? "unknown" : replaced;
}

/**
 * The name stem of a question's fresh empty workspace: the question id as it is (seed 002 §2), unless it could
 * not be one directory name (a separator, NUL, `.` or `..`), then its {@link safePathComponent}.
 */
export function questionDirStem(questionId: string): string {
  const unsafe = questionId === "" || questionId === "." || questionId === ".." || /[/\\\0]/.test(questionId);
  return unsafe ? safePathComponent(questionId) : questionId;
}

/**
 * A question's `workspace_path` as the pipeline uses it: `null` when unset or empty (the original tests it for
 * truth), else normalised (`./a//b/` → `a/b`) so that the copy's name `<path>_<suffix>` is a sibling, never a
 * child, of the source.
 */
export function normaliseWorkspacePath(path: string | null): string | null {
  if (path === null || path === "") return null;
  const normal = posix.normalize(path);
  return normal.length > 1 ? normal.replace(/\/+$/, "") : normal;
}

/** Whether `candidate` is `directory` itself or lies below it (both absolute, compared lexically). */
export function isInside(directory: string, candidate: string): boolean {
  const rel = relative(directory, candidate);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/**
 * Why `requested`, taken relative to `directory`, lands outside it (read lexically, before any symbolic link is
 * followed), or null when it stays inside.
 */
export function lexicalEscape(directory: string, requested: string): string | null {
  if (isInside(directory, resolve(directory, requested))) return null;
  return isAbsolute(requested) ? "it is an absolute path outside it" : "it climbs out with `..`";
}
