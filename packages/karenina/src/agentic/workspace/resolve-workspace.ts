import { chmod, cp, lstat, mkdir, readlink, realpath, rm, stat, symlink } from "node:fs/promises";
import { basename, dirname, join, relative, resolve } from "node:path";
import { confinedPath } from "./containment.js";
import {
  WorkspaceCopyError,
  WorkspaceError,
  WorkspaceEscapeError,
  WorkspaceRootMissingError,
  WorkspaceSourceMissingError,
} from "./errors.js";
import { candidateName, isInside, normaliseWorkspacePath, questionDirStem, runSuffix } from "./paths.js";
import { type ExcludeTest, snapshotWorkspace, type WorkspaceSnapshot } from "./snapshot.js";

/** What a workspace is resolved from: the benchmark's root, the question, and the run's settings. */
export interface WorkspaceRequest {
  /** The benchmark's workspace root; null when none is set (an error: agents need one). */
  root: string | null;
  questionId: string;
  /** The question's `workspace_path`, relative to the root; null or empty for a fresh empty directory. */
  workspacePath: string | null;
  /** `VerificationConfig.workspace_copy`: work in a copy (true) or in the original directory itself (false). */
  copy: boolean;
  /** The task's replicate number, null when the run has one replicate. */
  replicate: number | null;
  /** The moment that names the working directory; now by default. */
  now?: Date;
  /** The process id that names the working directory; this process's by default. */
  pid?: number;
  /**
   * `full` workspace capture with an output dir (spec 05 §12.2): the capture destination, which becomes the
   * working directory itself (not a copy: never cleaned up). Ignored when the agent works in the original.
   */
  outputPath?: string | null;
  /** `produced` workspace capture: take the baseline snapshot once the directory is prepared, these paths left out. */
  baseline?: { exclude: ExcludeTest } | null;
}

/** The directory an agent works in, as seed 002 §2 resolves it. */
export interface Workspace {
  /** Absolute path of the working directory. */
  readonly path: string;
  /**
   * True for a working copy or a fresh empty directory, which cleanup may remove; false when the agent works
   * in the question's original directory (`workspace_copy=false`), which is never removed.
   */
  readonly isCopy: boolean;
  /** The question's original directory; null for a fresh empty directory. */
  readonly source: string | null;
  /**
   * Symbolic links of the source, relative to it, left out of the copy because they lead outside the source
   * (following them, an agent could reach the original files or anything else).
   */
  readonly skippedLinks: readonly string[];
  /** The files as they were before the agent ran, when a `produced` capture asked for them. */
  readonly baseline?: WorkspaceSnapshot;
}

/** Workspaces this process created: the only ones cleanup may delete. */
const created = new WeakSet<Workspace>();

/** Whether `workspace` is a working directory that {@link resolveWorkspace} created in this process. */
export function isCreatedWorkspace(workspace: Workspace): boolean {
  return created.has(workspace);
}

const MAX_NAME_ATTEMPTS = 1000;

/**
 * Creates a new directory `parent/name`, or `parent/name_2`, `_3`, ... when the name is taken: never reuses
 * (nor deletes) a directory that exists, since with a name made of the second and the process id it belongs to
 * another task of this run.
 */
async function claimDirectory(parent: string, name: string): Promise<string> {
  for (let attempt = 1; attempt <= MAX_NAME_ATTEMPTS; attempt++) {
    const path = join(parent, candidateName(name, attempt));
    try {
      await mkdir(path);
      return path;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EEXIST") continue;
      const reason = code ?? (error as Error).message;
      throw new WorkspaceError(`cannot create the working directory ${path} (${reason})`, { cause: error });
    }
  }
  throw new WorkspaceError(`cannot create a working directory ${join(parent, name)}: every name is taken`);
}

/** The question's source directory: inside the root (also once links are followed) and an existing directory. */
async function sourceDirectory(root: string, questionId: string, workspacePath: string): Promise<string> {
  const subject = `question ${questionId}: workspace_path`;
  if (workspacePath.startsWith("/")) {
    throw new WorkspaceEscapeError(
      subject,
      workspacePath,
      root,
      "it is absolute (workspace_path is relative to the workspace root)",
    );
  }
  const source = await confinedPath(root, workspacePath, subject);
  const found = await stat(source).catch(() => null);
  if (found === null || !found.isDirectory()) {
    throw new WorkspaceSourceMissingError(questionId, workspacePath, source, found ? "a file" : "nothing");
  }
  return source;
}

/**
 * Recreates in the copy the symbolic links that stay inside the source (as relative links, so they point into
 * the copy, not the original); returns those left out.
 */
async function copyLinks(links: string[], realSource: string, destination: string): Promise<string[]> {
  const skipped: string[] = [];
  for (const link of links) {
    const target = await realpath(link).catch(async () => resolve(dirname(link), await readlink(link)));
    const at = join(destination, relative(realSource, link));
    if (!isInside(realSource, target)) {
      skipped.push(relative(realSource, link));
      continue;
    }
    await symlink(relative(dirname(at), join(destination, relative(realSource, target))) || ".", at);
  }
  return skipped.sort();
}

/** Copies the tree at `source` into the empty directory `destination`, keeping modes, never following links. */
async function copyTree(source: string, destination: string): Promise<string[]> {
  const realSource = await realpath(source);
  const links: string[] = [];
  await cp(realSource, destination, {
    recursive: true,
    errorOnExist: true,
    force: false,
    filter: async (from) => {
      if (!(await lstat(from)).isSymbolicLink()) return true;
      links.push(from);
      return false;
    },
  });
  await chmod(destination, (await stat(realSource)).mode & 0o7777);
  return copyLinks(links, realSource, destination);
}

/** A prepared working directory, before it is frozen; `created` when this process made it. */
type Prepared = { workspace: Omit<Workspace, "baseline">; created: boolean };

/**
 * Makes the capture destination of a `full` capture the working directory (spec 05 §12.2): a directory left
 * there by an earlier capture of the same result id is replaced.
 */
async function claimOutputPath(path: string): Promise<string> {
  try {
    await rm(path, { recursive: true, force: true });
    await mkdir(path, { recursive: true });
    return path;
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new WorkspaceError(`cannot create the working directory ${path} (${reason})`, { cause: error });
  }
}

async function prepare(request: WorkspaceRequest): Promise<Prepared> {
  if (request.root === null) throw new WorkspaceRootMissingError(request.questionId);
  const root = resolve(request.root);
  const suffix = runSuffix(request.now ?? new Date(), request.pid ?? process.pid, request.replicate);
  const workspacePath = normaliseWorkspacePath(request.workspacePath);
  const outputPath = request.outputPath == null ? null : resolve(request.outputPath);

  if (workspacePath === null) {
    if (outputPath !== null) {
      const path = await claimOutputPath(outputPath);
      return { workspace: { path, isCopy: false, source: null, skippedLinks: [] }, created: true };
    }
    // A root that cannot be created fails on the next line, with the working directory's path in the error.
    await mkdir(root, { recursive: true }).catch(() => undefined);
    const path = await claimDirectory(root, `${questionDirStem(request.questionId)}_${suffix}`);
    return { workspace: { path, isCopy: true, source: null, skippedLinks: [] }, created: true };
  }

  const source = await sourceDirectory(root, request.questionId, workspacePath);
  if (!request.copy) {
    return { workspace: { path: source, isCopy: false, source, skippedLinks: [] }, created: false };
  }
  if (source === root) {
    throw new WorkspaceEscapeError(
      `question ${request.questionId}: workspace_path`,
      request.workspacePath ?? "",
      root,
      "it names the workspace root itself, and a working copy of it would land inside it",
    );
  }
  const path =
    outputPath === null
      ? await claimDirectory(dirname(source), `${basename(source)}_${suffix}`)
      : await claimOutputPath(outputPath);
  try {
    const skippedLinks = await copyTree(source, path);
    return { workspace: { path, isCopy: outputPath === null, source, skippedLinks }, created: true };
  } catch (error) {
    await rm(path, { recursive: true, force: true });
    throw new WorkspaceCopyError(source, path, error);
  }
}

/**
 * Resolves the directory an agent works in, exactly as seed 002 §2 does:
 * - no workspace root ⇒ {@link WorkspaceRootMissingError};
 * - no `workspace_path` ⇒ a fresh empty directory `<root>/<question_id>_<suffix>` (a copy: cleanup removes it);
 * - a `workspace_path` that is absolute, climbs out of the root with `..`, or leads out of it through a symbolic
 *   link ⇒ {@link WorkspaceEscapeError}; one that names no directory ⇒ {@link WorkspaceSourceMissingError};
 * - `copy` ⇒ the tree is copied to `<root>/<workspace_path>_<suffix>` (modes kept, links never followed) and
 *   the agent works there: the original is not touched;
 * - not `copy` ⇒ the agent works in the original directory itself. **Agents may modify or delete its files**,
 *   and they stay modified for the next run; cleanup never removes it.
 *
 * The suffix is `run_<YYYYMMDDTHHMMSS>_pid<pid>[_rep<N>]`. Should that name exist already (two tasks of the
 * same question, process and second), `_2`, `_3`, ... is appended rather than reusing it.
 *
 * With an `outputPath` (a `full` capture, spec 05 §12.2) the fresh directory or the copy is made there instead,
 * replacing what is there, and is not a copy: cleanup never removes it. With `baseline`, the prepared
 * directory's files are fingerprinted for a `produced` capture.
 *
 * @example
 * const at = new Date(2025, 0, 2, 3, 4, 5);
 * const ws = await resolveWorkspace({ root: "workspaces", questionId: "q1", workspacePath: null, copy: true, replicate: 2, now: at, pid: 42 });
 * ws.path.endsWith("q1_run_20250102T030405_pid42_rep2"); // true
 * ws.isCopy; // true
 * (await cleanupWorkspace(ws, { cleanup: true })).status; // "removed"
 */
export async function resolveWorkspace(request: WorkspaceRequest): Promise<Workspace> {
  const { workspace, created: madeHere } = await prepare(request);
  const baseline = request.baseline
    ? await snapshotWorkspace(workspace.path, request.baseline.exclude)
    : null;
  const frozen: Workspace = Object.freeze({
    ...workspace,
    skippedLinks: Object.freeze([...workspace.skippedLinks]),
    ...(baseline === null ? {} : { baseline }),
  });
  if (madeHere) created.add(frozen);
  return frozen;
}
