import { readFile } from "node:fs/promises";
import { z } from "zod";
import { writeFileAtomic } from "../../checkpoint/index.js";
import { dottedPath, schemaProblems } from "../../errors/index.js";
import { TemplateBackupError } from "./errors.js";

/**
 * The progressive backup of a generation job (spec 06 §7): each generated template by question id, in the
 * shape of a successful outcome.
 */
export const TemplateBackupSchema = z.record(
  z.string(),
  z.looseObject({ success: z.literal(true), template_code: z.string().min(1) }),
);

export type TemplateBackup = z.output<typeof TemplateBackupSchema>;

/**
 * The original's default backup file name: `<benchmark name>_templates_backup.json`, the name made safe for
 * a file name.
 * @example
 * defaultBackupPath("Drug targets v2"); // "Drug_targets_v2_templates_backup.json"
 */
export function defaultBackupPath(benchmarkName: string): string {
  const safe = benchmarkName
    .trim()
    .replace(/[^A-Za-z0-9_-]+/g, "_")
    .replace(/^_+|_+$/g, "");
  return `${safe || "benchmark"}_templates_backup.json`;
}

/**
 * Reads a backup; an empty one when the file does not exist.
 * @throws {TemplateBackupError} when the file is not JSON or not a backup.
 */
export async function readTemplateBackup(path: string): Promise<TemplateBackup> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw new TemplateBackupError(path, `cannot read the template backup (${(error as Error).message})`, {
      cause: error,
    });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new TemplateBackupError(path, `not JSON (${(error as Error).message})`, { cause: error });
  }
  const parsed = TemplateBackupSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const problems = schemaProblems(parsed.error, value).map((p) =>
    p.path.length > 0 ? `${dottedPath(p.path)}: ${p.message}` : p.message,
  );
  throw new TemplateBackupError(
    path,
    `expected a template backup {"<question id>": {"success": true, "template_code": "..."}}: ${problems.join("; ")}`,
  );
}

/** Writes a backup atomically (temporary file, then rename). */
export function writeTemplateBackup(path: string, backup: TemplateBackup): Promise<void> {
  return writeFileAtomic(path, `${JSON.stringify(backup, null, 2)}\n`);
}
