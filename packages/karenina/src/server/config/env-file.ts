import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { serialised } from "./file-lock.js";
import { isMissing, writePrivateFile } from "./private-file.js";

/** The project's `.env`, in the server's work directory. */
export const ENV_FILE = ".env";

export const ENV_KEY_PATTERN = /^[A-Z_][A-Z0-9_]*$/;

/** One variable to set: the key's form and the value's length as spec 07 §2.2; no line breaks (one per line). */
export const EnvVariableSchema = z
  .object({
    key: z
      .string()
      .max(100)
      .regex(ENV_KEY_PATTERN, "upper-case letters, digits and _, not starting with a digit"),
    value: z
      .string()
      .max(1000)
      .refine(
        (value) => !/[\r\n\0]/.test(value),
        "no line breaks or NUL (each variable is one line of .env)",
      ),
  })
  .meta({ id: "EnvVariable" });
export type EnvVariable = z.infer<typeof EnvVariableSchema>;

/** The variables of a `.env` text, in order (later lines win, as a shell reading it would). */
export function parseEnv(text: string): Map<string, string> {
  const variables = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=(.*)$/.exec(line);
    if (match === null) continue;
    variables.set(match[1] as string, unquoted((match[2] as string).trim()));
  }
  return variables;
}

function unquoted(value: string): string {
  if (value.length >= 2 && value.startsWith("'") && value.endsWith("'")) {
    return value.slice(1, -1).replaceAll(`'\\''`, "'");
  }
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) {
    return value.slice(1, -1).replace(/\\(["\\$`])/g, "$1");
  }
  return value.replace(/\s+#.*$/, "");
}

/** A value as a POSIX shell word, so `. ./.env` reads it back as it is. */
function shellWord(value: string): string {
  return /^[\w@%+=:,./-]*$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}

function assignment(key: string, value: string): string {
  return `${key}=${shellWord(value)}`;
}

/**
 * `text` with each variable of `changes` set (a value) or removed (null): a variable's existing line is
 * rewritten in place, a new one appended; comments and other lines are kept.
 */
export function withVariables(text: string, changes: ReadonlyMap<string, string | null>): string {
  const pending = new Map(changes);
  const lines = text === "" ? [] : text.replace(/\n$/, "").split(/\r?\n/);
  const kept = lines.flatMap((line) => {
    const key = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=/.exec(line)?.[1];
    if (key === undefined || !changes.has(key)) return [line];
    const value = changes.get(key);
    pending.delete(key);
    return value === null || value === undefined ? [] : [assignment(key, value)];
  });
  for (const [key, value] of pending) if (value !== null) kept.push(assignment(key, value));
  return kept.length === 0 ? "" : `${kept.join("\n")}\n`;
}

/** How a secret shows in the masked listing: all but its last 4 characters as `*` (all of it when short). */
export function maskedValue(value: string): string {
  if (value.length <= 8) return "*".repeat(value.length);
  return `${"*".repeat(value.length - 4)}${value.slice(-4)}`;
}

/** Whether a variable holds a secret, by its name (`…_API_KEY`, `…_TOKEN`, `…_SECRET`, `…_PASSWORD`). */
export function isSecretKey(key: string): boolean {
  return /(?:API_KEY|TOKEN|SECRET|PASSWORD)$/.test(key);
}

/** The `.env` of a work directory: read, changed and written 0600 with a backup. */
export class EnvFile {
  readonly path: string;

  constructor(workDir: string) {
    this.path = join(workDir, ENV_FILE);
  }

  /** The file's text ("" when there is none). */
  async text(): Promise<string> {
    try {
      return await readFile(this.path, "utf8");
    } catch (error) {
      if (isMissing(error)) return "";
      throw error;
    }
  }

  /** Every variable, values as written. */
  async variables(): Promise<Record<string, string>> {
    return Object.fromEntries(parseEnv(await this.text()));
  }

  /** Every variable, secrets masked. */
  async maskedVariables(): Promise<Record<string, string>> {
    const variables = await this.variables();
    return Object.fromEntries(
      Object.entries(variables).map(([key, value]) => [key, isSecretKey(key) ? maskedValue(value) : value]),
    );
  }

  /** Sets or removes (null) variables in one write: all of them or, when the write fails, none. */
  async change(changes: ReadonlyMap<string, string | null>): Promise<void> {
    await serialised(this.path, async () =>
      writePrivateFile(this.path, withVariables(await this.text(), changes)),
    );
  }

  /** Replaces the whole file. */
  async replace(text: string): Promise<void> {
    await serialised(this.path, () => writePrivateFile(this.path, text));
  }
}
