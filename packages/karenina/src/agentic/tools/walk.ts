import type { Dirent } from "node:fs";
import { lstat, open, readdir } from "node:fs/promises";
import { join, relative, sep } from "node:path";

/** One entry of a workspace, its path relative to the workspace with `/` separators. */
export interface WalkEntry {
  path: string;
  type: "file" | "directory" | "symlink" | "other";
  /** Bytes, for files. */
  size?: number;
}

function entryType(entry: Dirent): WalkEntry["type"] {
  if (entry.isSymbolicLink()) return "symlink";
  if (entry.isDirectory()) return "directory";
  return entry.isFile() ? "file" : "other";
}

/** `path` relative to `root`, with `/` separators (`.` for the root itself). */
export function displayPath(root: string, path: string): string {
  const rel = relative(root, path);
  return rel === "" ? "." : rel.split(sep).join("/");
}

/**
 * The entries below `start` in name order, depth first (a directory before its contents), descending only when
 * `recursive`. Symbolic links are reported, never followed, so a walk cannot leave the workspace or loop.
 */
export async function* walk(
  root: string,
  start: string,
  recursive: boolean,
): AsyncGenerator<WalkEntry & { absolute: string }> {
  const entries = (await readdir(start, { withFileTypes: true })).sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
  );
  for (const entry of entries) {
    const absolute = join(start, entry.name);
    const type = entryType(entry);
    const size = type === "file" ? (await lstat(absolute)).size : undefined;
    yield { path: displayPath(root, absolute), type, ...(size === undefined ? {} : { size }), absolute };
    if (type === "directory" && recursive) yield* walk(root, absolute, true);
  }
}

const SNIFF_BYTES = 8192;

/** Whether a file looks binary: a NUL byte among its first 8 KiB. */
export async function looksBinary(path: string): Promise<boolean> {
  const handle = await open(path, "r");
  try {
    const buffer = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0);
    return buffer.subarray(0, bytesRead).includes(0);
  } finally {
    await handle.close();
  }
}
