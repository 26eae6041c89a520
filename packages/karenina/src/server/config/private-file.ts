import { chmod, copyFile, open, rename, rm, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { ConfigFileError } from "./errors.js";

/** Whether `error` says the file does not exist. */
export function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === "ENOENT";
}

/**
 * Replaces `file` with `text`, readable only by its owner (mode 0600), after copying the previous content to
 * `<file>.bak` (also 0600). The new content is written to a temporary file in the same folder and renamed over
 * `file`, so a reader sees the old file or the new one, never half of one, and a symlink at `file` is replaced,
 * never written through. Returns the backup's path, or null when there was no previous file.
 */
export async function writePrivateFile(file: string, text: string): Promise<string | null> {
  const backup = `${file}.bak`;
  const temporary = join(dirname(file), `.${basename(file)}.${process.pid}.${Date.now()}.tmp`);
  let backedUp: string | null = null;
  try {
    try {
      await copyFile(file, backup);
      await chmod(backup, 0o600);
      backedUp = backup;
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
    const handle = await open(temporary, "wx", 0o600);
    try {
      await handle.writeFile(text, "utf8");
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, file);
    await chmod(file, 0o600);
    return backedUp;
  } catch (error) {
    await rm(temporary, { force: true });
    throw new ConfigFileError(
      `cannot write ${file}: ${(error as Error).message}; the file was left as it was`,
      {
        cause: error,
      },
    );
  }
}

/** Moves `file` aside to `<file>.bak` (0600); nothing when it does not exist. */
export async function removeWithBackup(file: string): Promise<void> {
  try {
    await copyFile(file, `${file}.bak`);
    await chmod(`${file}.bak`, 0o600);
    await unlink(file);
  } catch (error) {
    if (isMissing(error)) return;
    throw new ConfigFileError(`cannot remove ${file}: ${(error as Error).message}`, { cause: error });
  }
}
