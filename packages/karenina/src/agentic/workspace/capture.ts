/**
 * Workspace capture (spec 05 §12.8): after a task, its workspace — all of it (`full`) or only what the task
 * produced (`produced`) — is copied to `<output_dir>/<safe(question_id)>__<safe(result_id)>`.
 */
import { chmod, copyFile, mkdir, readlink, rm, stat, symlink } from "node:fs/promises";
import { dirname, join, posix, relative, resolve } from "node:path";
import picomatch from "picomatch";
import { isInside, safePathComponent } from "./paths.js";
import type { Workspace } from "./resolve-workspace.js";
import {
  type Entry,
  type ExcludeTest,
  entriesOf,
  producedPaths,
  snapshotOf,
  type WorkspaceSnapshot,
} from "./snapshot.js";

/** What `workspace_output_mode` copies: the whole final workspace, or only files new or changed by the task. */
export type CaptureMode = "full" | "produced";

/** Left out of `produced` captures whatever the run's own patterns say (spec 05 §12.8). */
export const DEFAULT_CAPTURE_EXCLUDES: readonly string[] = [
  ".venv/",
  "venv/",
  "__pycache__/",
  ".pytest_cache/",
  ".ruff_cache/",
  ".mypy_cache/",
  ".ipynb_checkpoints/",
  "*.pyc",
];

/**
 * The exclude test of fnmatch-style patterns, as picomatch reads them (`*` also matches a leading dot).
 * A pattern ending in `/` names directories (of any depth) whose whole subtree is left out; another pattern is
 * matched against the relative path, and — when it has no `/` — against the name alone, so `*.pyc` excludes
 * `a/b/c.pyc`.
 * @example
 * const excluded = excludeTest([...DEFAULT_CAPTURE_EXCLUDES, "*.log"]);
 * excluded("src/.venv", true); // true
 * excluded("out/run.log", false); // true
 * excluded("out/result.csv", false); // false
 */
export function excludeTest(patterns: readonly string[]): ExcludeTest {
  const tests = patterns.map((pattern) => {
    const directoryOnly = pattern.endsWith("/");
    const glob = directoryOnly ? pattern.replace(/\/+$/, "") : pattern;
    const matches = picomatch(glob, { dot: true });
    const byName = !glob.includes("/");
    return (path: string, directory: boolean) =>
      (!directoryOnly || directory) && (matches(path) || (byName && matches(posix.basename(path))));
  });
  return (path, directory) => tests.some((test) => test(path, directory));
}

/** The patterns of a capture: none at all in `full` mode, else the defaults plus the run's own. */
export function captureExcludes(mode: CaptureMode, custom: readonly string[]): readonly string[] {
  return mode === "full" ? [] : [...DEFAULT_CAPTURE_EXCLUDES, ...custom];
}

/** Where a task's workspace is captured: `<output_dir>/<safe(question_id)>__<safe(result_id)>` (absolute). */
export function captureDestination(outputDir: string, questionId: string, resultId: string): string {
  return resolve(outputDir, `${safePathComponent(questionId)}__${safePathComponent(resultId)}`);
}

/**
 * Recreates a symbolic link: one that stays inside the workspace points to the same place in the capture
 * (relative), one that leads outside is copied as it is; links are never followed.
 */
async function copyLink(source: string, destination: string, path: string): Promise<void> {
  const from = join(source, path);
  const to = join(destination, path);
  const target = await readlink(from);
  const resolved = resolve(dirname(from), target);
  const inside = isInside(source, resolved);
  await symlink(
    inside ? relative(dirname(to), join(destination, relative(source, resolved))) || "." : target,
    to,
  );
}

async function copyEntry(source: string, destination: string, entry: Entry): Promise<void> {
  await mkdir(dirname(join(destination, entry.path)), { recursive: true });
  if (entry.kind === "link") return copyLink(source, destination, entry.path);
  if (entry.kind !== "file") throw new Error("not a regular file, a directory or a symbolic link");
  const to = join(destination, entry.path);
  await copyFile(join(source, entry.path), to);
  await chmod(to, (await stat(join(source, entry.path))).mode & 0o7777);
}

/** What a capture should do. */
export interface CaptureRequest {
  mode: CaptureMode;
  /** The task's live workspace; null when it has none. */
  workspace: Workspace | null;
  /** The capture destination ({@link captureDestination}). */
  destination: string;
  /** `workspace_output_exclude_patterns` (used in `produced` mode only, after the defaults). */
  exclude: readonly string[];
  /** The baseline of `produced` mode; none means every file counts as produced. */
  baseline: WorkspaceSnapshot | null;
}

/** What a capture did: the status and counts of its manifest row. */
export type CaptureOutcome =
  | {
      status: "captured" | "captured_with_errors";
      destination: string;
      copiedFileCount: number;
      /** `<relative path>: <reason>` of each entry that could not be copied. */
      copyErrors: string[];
    }
  | { status: "skipped"; skipReason: string; copyErrors: string[] };

const reasonOf = (error: unknown) => (error as NodeJS.ErrnoException).code ?? (error as Error).message;

async function isLiveDirectory(path: string): Promise<boolean> {
  return (await stat(path).catch(() => null))?.isDirectory() === true;
}

/**
 * Copies a task's workspace to its capture destination (spec 05 §12.8). `full` copies everything, no pattern
 * applied; `produced` copies the files (and links) new or changed since the baseline, the default excludes and
 * the run's patterns left out. A workspace that already is the destination (full mode with an output dir,
 * spec 05 §12.2) is only counted. Files are copied with their modes; symbolic links are recreated, never
 * followed. Never throws: a missing workspace or a destination that cannot be made is `skipped`, an entry that
 * cannot be copied is a copy error.
 */
export async function captureWorkspace(request: CaptureRequest): Promise<CaptureOutcome> {
  const { workspace, mode } = request;
  if (workspace === null) return { status: "skipped", skipReason: "no_workspace", copyErrors: [] };
  const source = resolve(workspace.path);
  if (!(await isLiveDirectory(source))) {
    return { status: "skipped", skipReason: "workspace_missing", copyErrors: [] };
  }
  const destination = resolve(request.destination);
  const excluded = excludeTest(captureExcludes(mode, request.exclude));
  try {
    const entries = await entriesOf(source, excluded);
    if (source === destination) {
      return { status: "captured", destination, copiedFileCount: entries.length, copyErrors: [] };
    }
    if (isInside(destination, source)) {
      return {
        status: "skipped",
        skipReason: "copy_failed",
        copyErrors: [`${destination} contains the workspace`],
      };
    }
    let selected = entries;
    if (mode === "produced") {
      const produced = new Set(
        producedPaths(request.baseline ?? new Map(), await snapshotOf(source, entries)),
      );
      selected = entries.filter((entry) => produced.has(entry.path));
    }
    await rm(destination, { recursive: true, force: true });
    await mkdir(destination, { recursive: true });
    const copyErrors: string[] = [];
    let copied = 0;
    for (const entry of selected) {
      try {
        await copyEntry(source, destination, entry);
        copied++;
      } catch (error) {
        copyErrors.push(`${entry.path}: ${reasonOf(error)}`);
      }
    }
    const status = copyErrors.length === 0 ? "captured" : "captured_with_errors";
    return { status, destination, copiedFileCount: copied, copyErrors };
  } catch (error) {
    return { status: "skipped", skipReason: "copy_failed", copyErrors: [reasonOf(error)] };
  }
}
