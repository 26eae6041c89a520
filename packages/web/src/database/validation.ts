/**
 * What is wrong with a name typed in the database dialog, checked before the request so the person sees it at
 * the field (the server checks the same and more). Each returns undefined when the value is fine.
 */

const CONNECTION_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** A connection name: 1 to 64 letters, digits, `_` or `-` (the server's rule). */
export function connectionNameProblem(name: string): string | undefined {
  if (name === "") return "Give the connection a name.";
  return CONNECTION_NAME.test(name) ? undefined : "Use 1 to 64 letters, digits, '_' or '-'.";
}

/** A new SQLite file's name (`.db` is added by the server when missing): a plain file name. */
export function databaseNameProblem(name: string, existing: readonly string[] = []): string | undefined {
  const trimmed = name.trim();
  if (trimmed === "") return "Give the database a name.";
  if (trimmed.length > 100) return "Use at most 100 characters.";
  if (/[/\\]/.test(trimmed) || trimmed.startsWith("."))
    return "Use a plain file name: no folders, no leading dot.";
  const file = trimmed.endsWith(".db") ? trimmed : `${trimmed}.db`;
  return existing.includes(file) ? `${file} exists already.` : undefined;
}

/** A new benchmark's name: 1 to 200 characters, not taken in this database. */
export function benchmarkNameProblem(name: string, existing: readonly string[] = []): string | undefined {
  const trimmed = name.trim();
  if (trimmed === "") return "Give the benchmark a name.";
  if (trimmed.length > 200) return "Use at most 200 characters.";
  return existing.includes(trimmed) ? `A benchmark named "${trimmed}" exists already.` : undefined;
}

/** An optional run name for imported results: at most 200 characters. */
export function runNameProblem(name: string): string | undefined {
  return name.trim().length > 200 ? "Use at most 200 characters." : undefined;
}

/** The format of a results file the page can import, by its name; undefined for another kind. */
export function resultsFileKind(filename: string): "jsonl" | "json" | undefined {
  const lower = filename.toLowerCase();
  if (lower.endsWith(".jsonl")) return "jsonl";
  if (lower.endsWith(".json")) return "json";
  return undefined;
}
