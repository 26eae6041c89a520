/**
 * Workspace snapshots (spec 05 §12.2): every file and symbolic link of a workspace with its size and SHA-256,
 * the baseline a `produced` capture compares the final workspace with.
 */
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { lstat, readdir, readlink, stat } from "node:fs/promises";
import { join } from "node:path";

/** A file's (or a symbolic link's) size and SHA-256: what tells a changed file from an unchanged one. */
export interface FileFingerprint {
  readonly size: number;
  readonly sha256: string;
}

/** Relative POSIX path → fingerprint, of every file and symbolic link of a workspace. */
export type WorkspaceSnapshot = ReadonlyMap<string, FileFingerprint>;

/** Whether a path (relative, POSIX) of a workspace is left out; `directory` for directories. */
export type ExcludeTest = (path: string, directory: boolean) => boolean;

/** The paths of `current` that are new, or whose size or content differs, compared with `baseline`; sorted. */
export function producedPaths(baseline: WorkspaceSnapshot, current: WorkspaceSnapshot): string[] {
  const produced: string[] = [];
  for (const [path, print] of current) {
    const before = baseline.get(path);
    if (before === undefined || before.size !== print.size || before.sha256 !== print.sha256)
      produced.push(path);
  }
  return produced.sort();
}

/** A file system entry below a workspace, other than a directory. */
export interface Entry {
  readonly path: string;
  readonly kind: "file" | "link" | "other";
}

/** Every non-directory entry below `root` (relative POSIX paths), not descending into excluded directories. */
export async function entriesOf(root: string, excluded: ExcludeTest): Promise<Entry[]> {
  const entries: Entry[] = [];
  const visit = async (relativeDir: string): Promise<void> => {
    const names = (await readdir(join(root, relativeDir))).sort();
    for (const name of names) {
      const path = relativeDir === "" ? name : `${relativeDir}/${name}`;
      const stats = await lstat(join(root, path));
      if (excluded(path, stats.isDirectory())) continue;
      if (stats.isDirectory()) await visit(path);
      else entries.push({ path, kind: stats.isFile() ? "file" : stats.isSymbolicLink() ? "link" : "other" });
    }
  };
  await visit("");
  return entries;
}

async function fileSha256(path: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

async function fingerprint(root: string, entry: Entry): Promise<FileFingerprint | null> {
  const path = join(root, entry.path);
  if (entry.kind === "link") {
    const target = await readlink(path);
    return {
      size: Buffer.byteLength(target),
      sha256: createHash("sha256").update(`link:${target}`).digest("hex"),
    };
  }
  if (entry.kind !== "file") return null;
  return { size: (await stat(path)).size, sha256: await fileSha256(path) };
}

export async function snapshotOf(root: string, entries: readonly Entry[]): Promise<WorkspaceSnapshot> {
  const snapshot = new Map<string, FileFingerprint>();
  for (const entry of entries) {
    const print = await fingerprint(root, entry);
    if (print !== null) snapshot.set(entry.path, print);
  }
  return snapshot;
}

/**
 * The baseline of a `produced` capture (spec 05 §12.2): every file and symbolic link of the workspace with its
 * size and SHA-256, excluded paths left out (their subtrees are not even read).
 */
export async function snapshotWorkspace(root: string, excluded: ExcludeTest): Promise<WorkspaceSnapshot> {
  return snapshotOf(root, await entriesOf(root, excluded));
}
