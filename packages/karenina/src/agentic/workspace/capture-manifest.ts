/**
 * The manifest of a workspace output directory (spec 05 §12.8): one row per capture, appended to
 * `manifest.jsonl` as tasks finish, compacted to `manifest.json` when a batch completes.
 */
import { mkdir, open, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { writeFileAtomic } from "../../checkpoint/index.js";
import { ModelIdentitySchema } from "../../results/index.js";
import { CaptureManifestError } from "./errors.js";

/** One capture: which task, from where to where, and how it went (`skip_reason` only when skipped). */
export const CaptureManifestRowSchema = z.object({
  question_id: z.string(),
  result_id: z.string(),
  run_name: z.string().nullable(),
  replicate: z.int().nullable(),
  scenario_id: z.string().nullable(),
  scenario_node: z.string().nullable(),
  scenario_turn: z.int().nullable(),
  answering: ModelIdentitySchema,
  parsing: ModelIdentitySchema,
  capture_mode: z.enum(["full", "produced"]),
  /** The workspace the task worked in; null when it had none. */
  source_workspace_path: z.string().nullable(),
  /** Where the capture is; null when skipped (nothing was written). */
  destination: z.string().nullable(),
  status: z.enum(["captured", "captured_with_errors", "skipped"]),
  copied_file_count: z.int().min(0),
  copy_errors: z.array(z.string()),
  /** `no_workspace`, `workspace_missing` or `copy_failed`. */
  skip_reason: z.string().optional(),
});
export type CaptureManifestRow = z.infer<typeof CaptureManifestRowSchema>;

/** `<output_dir>/manifest.jsonl`, appended to while a run goes. */
export const manifestLogPath = (outputDir: string) => join(outputDir, "manifest.jsonl");
/** `<output_dir>/manifest.json`, the compacted manifest. */
export const manifestPath = (outputDir: string) => join(outputDir, "manifest.json");

const reasonOf = (error: unknown) => (error as NodeJS.ErrnoException).code ?? (error as Error).message;

/**
 * Appends a row to `<output_dir>/manifest.jsonl` as one line in one write, and waits until it is `fsync`ed, as
 * the run log does: a killed run loses only captures still in flight.
 * @throws {CaptureManifestError} when the file cannot be written.
 */
export async function appendManifestRow(outputDir: string, row: CaptureManifestRow): Promise<void> {
  const file = manifestLogPath(outputDir);
  const line = `${JSON.stringify(CaptureManifestRowSchema.parse(row))}\n`;
  try {
    await mkdir(outputDir, { recursive: true });
    const handle = await open(file, "a");
    try {
      await handle.write(line);
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch (error) {
    throw new CaptureManifestError(file, `cannot append a capture row (${reasonOf(error)})`, {
      cause: error,
    });
  }
}

/** The rows of JSONL text; a line that is not a row (half written by a killed run) is left out. */
export function parseManifestLines(text: string): CaptureManifestRow[] {
  const rows: CaptureManifestRow[] = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue;
    }
    const row = CaptureManifestRowSchema.safeParse(value);
    if (row.success) rows.push(row.data);
  }
  return rows;
}

async function readOptional(file: string): Promise<string | null> {
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw new CaptureManifestError(file, `cannot read the manifest (${reasonOf(error)})`, { cause: error });
  }
}

async function compactedRows(file: string): Promise<CaptureManifestRow[]> {
  const text = await readOptional(file);
  if (text === null) return [];
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  const rows = z.array(CaptureManifestRowSchema).safeParse(value);
  if (!rows.success) throw new CaptureManifestError(file, "expected a JSON array of capture rows");
  return rows.data;
}

/**
 * Compacts `manifest.jsonl` into `manifest.json` (a JSON array, written atomically), after the rows an earlier
 * compaction left there; one row per `result_id`, the last one written kept. Then removes `manifest.jsonl`.
 * Does nothing when there is no `manifest.jsonl`. Returns the number of rows of `manifest.json`, or null.
 * @throws {CaptureManifestError} when a file cannot be read or written, or `manifest.json` is not a manifest.
 */
export async function compactManifest(outputDir: string): Promise<number | null> {
  const log = manifestLogPath(outputDir);
  const text = await readOptional(log);
  if (text === null) return null;
  const target = manifestPath(outputDir);
  const byResult = new Map<string, CaptureManifestRow>();
  for (const row of [...(await compactedRows(target)), ...parseManifestLines(text)]) {
    byResult.delete(row.result_id);
    byResult.set(row.result_id, row);
  }
  const rows = [...byResult.values()];
  try {
    await writeFileAtomic(target, `${JSON.stringify(rows, null, 2)}\n`);
    await rm(log, { force: true });
  } catch (error) {
    const reason = reasonOf((error as Error).cause ?? error);
    throw new CaptureManifestError(target, `cannot write the compacted manifest (${reason})`, {
      cause: error,
    });
  }
  return rows.length;
}
