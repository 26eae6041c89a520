import { resolve } from "node:path";
import { StorageOpenError } from "./errors.js";

/** The embedded default database: a SQLite file in the working directory. */
export const DEFAULT_DB_FILE = "karenina.db";

/** Where a storage URL points. */
export type StorageTarget =
  | { readonly dialect: "sqlite"; readonly file: string }
  | { readonly dialect: "postgres"; readonly connectionString: string };

const SQLITE_SCHEME = /^sqlite(\+[\w-]+)?:\/\//i;
const POSTGRES_SCHEME = /^postgres(ql)?(\+[\w-]+)?:\/\//i;
const MEMORY = ":memory:";

/**
 * The URL as messages show it: the password (in the authority or a `password=` parameter) masked.
 * @example
 * describeStorageUrl("postgres://karenina:s3cret@db.example.org/bench"); // "postgres://karenina:***@db.example.org/bench"
 * describeStorageUrl("results/karenina.db"); // "results/karenina.db"
 */
export function describeStorageUrl(url: string): string {
  return url
    .replace(/^([a-z][\w+.-]*:\/\/[^:/?#@]*:)[^/?#]*@/i, "$1***@")
    .replace(/(password=)[^&]*/gi, "$1***");
}

/**
 * Reads a storage URL as the original (SQLAlchemy) writes them: `sqlite:///relative.db`, `sqlite:////abs.db`,
 * `sqlite://` (in memory), `postgres://` or `postgresql://` (a `+driver` suffix is ignored); anything without
 * `://` is the path of a SQLite file. Relative paths resolve against the working directory.
 * @throws {StorageOpenError} for any other scheme.
 */
export function parseStorageUrl(url: string): StorageTarget {
  if (url.trim() === "") throw new StorageOpenError("<empty URL>", "no database URL or file path given");
  if (POSTGRES_SCHEME.test(url)) {
    return { dialect: "postgres", connectionString: url.replace(POSTGRES_SCHEME, "postgres://") };
  }
  if (SQLITE_SCHEME.test(url))
    return { dialect: "sqlite", file: sqliteFile(url, url.replace(SQLITE_SCHEME, "")) };
  if (!url.includes("://")) return { dialect: "sqlite", file: sqliteFile(url, url) };
  throw new StorageOpenError(
    describeStorageUrl(url),
    "unsupported database URL (expected a SQLite file path, sqlite:///path.db, or postgres://user@host/db)",
  );
}

/**
 * The file of a SQLite target. For a URL, `path` is what follows `sqlite://`: empty, `/` or `/:memory:` is in
 * memory, `/x.db` is `x.db` and `//x.db` is `/x.db`. A bare path is the file itself.
 */
function sqliteFile(url: string, path: string): string {
  const shown = describeStorageUrl(url);
  if (url !== path && path.includes("?")) {
    throw new StorageOpenError(shown, "query parameters are not supported in SQLite URLs");
  }
  if (url !== path && path !== "" && !path.startsWith("/")) {
    throw new StorageOpenError(shown, "expected sqlite:///relative/path.db or sqlite:////absolute/path.db");
  }
  const file = url === path ? path : path.slice(1);
  return file === "" || file === MEMORY ? MEMORY : resolve(file);
}

/** Whether a SQLite target lives only in memory. */
export function isInMemory(file: string): boolean {
  return file === MEMORY;
}
