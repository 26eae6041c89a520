import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import { WorkspaceToolError } from "./errors.js";
import type { WorkspaceToolLimits } from "./limits.js";
import { existingStats, toolPath } from "./tool-paths.js";
import { looksBinary } from "./walk.js";

export interface ReadFileInput {
  path: string;
  /** First line to return, 1-based; 1 by default. */
  start_line?: number;
  /** Last line to return, inclusive; the end of the file by default. */
  end_line?: number;
}

export interface ReadFileOutput {
  path: string;
  content: string;
  /** The lines `content` holds, 1-based and inclusive (`end_line < start_line` when it is empty). */
  start_line: number;
  end_line: number;
  /** The file's line count, when the read reached its end. */
  total_lines: number | null;
  /** True when `readMaxBytes` stopped the read before `end_line`: ask again from `end_line + 1`. */
  truncated: boolean;
  size: number;
}

/** Lines `start..end` of `path`, whole lines only, at most `maxBytes` bytes (a longer first line is cut). */
async function readLines(path: string, start: number, end: number, maxBytes: number) {
  const lines: string[] = [];
  let bytes = 0;
  let number = 0;
  let truncated = false;
  const reader = createInterface({
    input: createReadStream(path, "utf8"),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  try {
    for await (const line of reader) {
      number++;
      if (number < start) continue;
      if (number > end) return { lines, truncated, total: null };
      const size = Buffer.byteLength(line) + 1;
      if (bytes + size > maxBytes) {
        if (lines.length === 0) lines.push(Buffer.from(line).subarray(0, maxBytes).toString("utf8"));
        truncated = true;
        return { lines, truncated, total: null };
      }
      lines.push(line);
      bytes += size;
    }
    return { lines, truncated, total: number };
  } finally {
    reader.close();
  }
}

/** A text file of the workspace, or a range of its lines, within `readMaxBytes`. Binary files are refused. */
export async function readFile(
  workspace: string,
  input: ReadFileInput,
  limits: Pick<WorkspaceToolLimits, "readMaxBytes">,
): Promise<ReadFileOutput> {
  const path = await toolPath("read_file", workspace, input.path);
  const stats = await existingStats("read_file", path, input.path);
  const shown = JSON.stringify(input.path);
  if (stats.isDirectory()) {
    throw new WorkspaceToolError(
      "read_file",
      `${shown}: expected a file, found a directory (use list_files)`,
    );
  }
  if (!stats.isFile())
    throw new WorkspaceToolError("read_file", `${shown}: expected a file, found a special file`);
  if (await looksBinary(path)) {
    throw new WorkspaceToolError(
      "read_file",
      `${shown}: expected a text file, found binary data (${stats.size} bytes)`,
    );
  }
  const start = input.start_line ?? 1;
  const end = input.end_line ?? Number.POSITIVE_INFINITY;
  const { lines, truncated, total } = await readLines(path, start, end, limits.readMaxBytes);
  return {
    path: input.path,
    content: lines.join("\n"),
    start_line: start,
    end_line: start + lines.length - 1,
    total_lines: total,
    truncated,
    size: stats.size,
  };
}
