import { randomBytes } from "node:crypto";
import { chmod, mkdir, rename, rm, stat, writeFile as writeFileRaw } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { WorkspaceToolError } from "./errors.js";
import type { WorkspaceToolLimits } from "./limits.js";
import { toolPath } from "./tool-paths.js";

export interface WriteFileInput {
  path: string;
  content: string;
}

export interface WriteFileOutput {
  path: string;
  bytes_written: number;
  /** False when an existing file was replaced. */
  created: boolean;
}

/**
 * Writes a text file of the workspace atomically (a temporary file beside it, then a rename), creating missing
 * parent directories. An existing file keeps its mode; a symbolic link at the path is replaced by the file.
 */
export async function writeFile(
  workspace: string,
  input: WriteFileInput,
  limits: Pick<WorkspaceToolLimits, "writeMaxBytes">,
): Promise<WriteFileOutput> {
  const path = await toolPath("write_file", workspace, input.path);
  const bytes = Buffer.byteLength(input.content);
  if (bytes > limits.writeMaxBytes) {
    throw new WorkspaceToolError(
      "write_file",
      `${JSON.stringify(input.path)}: expected at most ${limits.writeMaxBytes} bytes of content, found ${bytes}`,
    );
  }
  const existing = await stat(path).catch(() => null);
  if (existing?.isDirectory()) {
    throw new WorkspaceToolError(
      "write_file",
      `${JSON.stringify(input.path)}: expected a file, found a directory`,
    );
  }
  const temporary = join(
    dirname(path),
    `.${basename(path)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`,
  );
  try {
    await mkdir(dirname(path), { recursive: true });
    await writeFileRaw(temporary, input.content, { encoding: "utf8", flag: "wx" });
    if (existing) await chmod(temporary, existing.mode & 0o7777);
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new WorkspaceToolError("write_file", `${JSON.stringify(input.path)}: cannot write (${reason})`);
  }
  return { path: input.path, bytes_written: bytes, created: existing === null };
}
