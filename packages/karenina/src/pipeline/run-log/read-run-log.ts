import { readFile } from "node:fs/promises";
import { RunLogError, reasonOf } from "./run-log-error.js";

/** What a run log holds. */
export interface RunLogContents<T> {
  /** The readable results, in file order. */
  results: T[];
  /** Non-blank lines skipped: not JSON (e.g. a half line from a crash), or rejected by `accept`. */
  skippedLines: number;
}

/** How {@link readRunLog} filters lines. */
export interface ReadRunLogOptions<T> {
  /** Keeps only values that are valid results; others count as skipped lines. Default: every JSON value. */
  accept?: (value: unknown) => value is T;
}

/**
 * Reads a run log written by {@link RunLogWriter}. Lines that are not JSON, such as a truncated last line,
 * are skipped and counted, never thrown. A missing file reads as empty (a run killed before its first result).
 * @throws {RunLogError} when the file exists but cannot be read.
 */
export async function readRunLog<T = unknown>(
  path: string,
  options: ReadRunLogOptions<T> = {},
): Promise<RunLogContents<T>> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { results: [], skippedLines: 0 };
    throw new RunLogError(path, `cannot read the run log (${reasonOf(error)})`, { cause: error });
  }
  const results: T[] = [];
  let skippedLines = 0;
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      skippedLines += 1;
      continue;
    }
    if (options.accept && !options.accept(value)) skippedLines += 1;
    else results.push(value as T);
  }
  return { results, skippedLines };
}
