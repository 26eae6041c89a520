import { readFile } from "node:fs/promises";
import { writeFileAtomic } from "../checkpoint/index.js";
import { describeValue } from "../errors/index.js";
import { pythonJson } from "../python-repr/index.js";
import { GeneratedTemplatesFileError } from "./errors.js";
import { indentPythonJson } from "./exports.js";

const SHAPE = 'expected a JSON object {"<question id>": "<template code>"}';

/**
 * Writes `{question id: code}` as the original's `export_generated_templates` does: `json.dump(..., indent=2)`,
 * non-ASCII escaped, no trailing newline; atomically (temporary file, then rename).
 */
export function writeGeneratedTemplates(path: string, templates: Record<string, string>): Promise<void> {
  return writeFileAtomic(path, indentPythonJson(pythonJson(templates, { ensureAscii: true })));
}

/**
 * The templates of a file written by `export_generated_templates`, in file order. The file is data from
 * anywhere: it must be a JSON object of strings; nothing in it is run here.
 * @throws {GeneratedTemplatesFileError} naming the file and what is wrong.
 */
export async function readGeneratedTemplates(path: string): Promise<[string, string][]> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new GeneratedTemplatesFileError(path, `cannot read the file (${(error as Error).message})`, {
      cause: error,
    });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new GeneratedTemplatesFileError(path, `not JSON (${(error as Error).message}); ${SHAPE}`, {
      cause: error,
    });
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new GeneratedTemplatesFileError(path, `${SHAPE}, found ${describeValue(value)}`);
  }
  const entries = Object.entries(value as Record<string, unknown>);
  for (const [id, code] of entries) {
    if (typeof code !== "string") {
      throw new GeneratedTemplatesFileError(
        path,
        `${JSON.stringify(id)}: ${SHAPE}, found ${describeValue(code)} as the code`,
      );
    }
  }
  return entries as [string, string][];
}
