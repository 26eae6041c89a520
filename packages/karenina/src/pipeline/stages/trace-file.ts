import { randomBytes } from "node:crypto";
import { link, mkdir, mkdtemp, rm, rmdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import type { Workspace } from "../../agentic/index.js";
import { KareninaError } from "../../errors/index.js";

/** The answering trace could not be written to a file for a judge to read. */
export class TraceMaterializationError extends KareninaError {
  override readonly name = "TraceMaterializationError";

  constructor(
    readonly file: string,
    readonly reason: string,
    options?: ErrorOptions,
  ) {
    super(`${file}: cannot write the answering trace for the judge (${reason})`, options);
  }
}

/**
 * The file name of a question's materialised trace (spec 05 §12.3): `<safeQid>_trace.txt`, where every
 * character outside `[A-Za-z0-9_-]` of the question id is `_` (a stricter rule than the workspace names').
 * `attempt` > 1 (the name was taken) gives `<safeQid>_trace_<attempt>.txt`. Question `urn:uuid:q-1`:
 * `urn_uuid_q-1_trace.txt`.
 */
export function traceFileName(questionId: string, attempt = 1): string {
  const safe = questionId.replace(/[^A-Za-z0-9_-]/g, "_");
  return attempt === 1 ? `${safe}_trace.txt` : `${safe}_trace_${attempt}.txt`;
}

/** A materialised trace: the file a judge is pointed at, and its removal. */
export interface TraceFile {
  /** Absolute path of the file. */
  readonly path: string;
  /**
   * Removes the file — and the `traces/` directory when this created it and it is now empty, or the temporary
   * directory — unless `persist`. A failure to remove is returned as a warning, never thrown.
   */
  release(persist: boolean): Promise<string | null>;
}

const MAX_NAME_ATTEMPTS = 100;

/**
 * Writes `text` as a new file `dir/<name>`, atomically (a temporary file, then a hard link under the final
 * name, which fails rather than replace a file): a name already taken — another judge of the same shared
 * answer reading its own copy, or a persisted trace of an earlier run — gets the next attempt's name.
 */
async function writeNewFile(dir: string, name: (attempt: number) => string, text: string): Promise<string> {
  const temporary = join(dir, `.${name(1)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  await writeFile(temporary, text, { encoding: "utf8", flag: "wx" });
  try {
    for (let attempt = 1; attempt <= MAX_NAME_ATTEMPTS; attempt++) {
      const target = join(dir, name(attempt));
      try {
        await link(temporary, target);
        return target;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      }
    }
    throw new Error(`${MAX_NAME_ATTEMPTS} names taken`);
  } finally {
    await rm(temporary, { force: true });
  }
}

/**
 * Writes the answering trace to a file a judge can read instead of receiving it inline (spec 05 §12.3
 * "Trace materialization", §12.6 step 2): `<workspace>/traces/<safeQid>_trace.txt`, or the same name in a
 * fresh temporary directory when the task has no workspace.
 * @throws {TraceMaterializationError} when the file cannot be written.
 */
export async function materializeTrace(
  trace: string,
  questionId: string,
  workspace: Workspace | null,
): Promise<TraceFile> {
  const inWorkspace = workspace === null ? null : join(workspace.path, "traces");
  let dir = inWorkspace ?? tmpdir();
  let createdDir = false;
  try {
    if (inWorkspace === null) dir = await mkdtemp(join(tmpdir(), "karenina-trace-"));
    else createdDir = (await mkdir(inWorkspace, { recursive: true })) !== undefined;
    const path = await writeNewFile(dir, (attempt) => traceFileName(questionId, attempt), trace);
    return { path, release: (persist) => release(path, inWorkspace === null, createdDir, persist) };
  } catch (error) {
    if (inWorkspace === null && dir !== tmpdir()) await rm(dir, { recursive: true, force: true });
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new TraceMaterializationError(join(dir, traceFileName(questionId)), reason, { cause: error });
  }
}

async function release(
  path: string,
  temporaryDir: boolean,
  createdDir: boolean,
  persist: boolean,
): Promise<string | null> {
  if (persist) return null;
  try {
    if (temporaryDir) await rm(dirname(path), { recursive: true, force: true });
    else {
      await rm(path, { force: true });
      // Not empty: another judge's trace, or a file the agent left there, keeps it.
      if (createdDir) await rmdir(dirname(path)).catch(() => undefined);
    }
    return null;
  } catch (error) {
    return `Failed to remove the materialised trace ${basename(path)} (${(error as Error).message})`;
  }
}
