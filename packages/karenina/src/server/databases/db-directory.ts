import { readdir, realpath, stat } from "node:fs/promises";
import { isAbsolute, join, relative, resolve } from "node:path";
import { ApiError } from "../core/index.js";

/** The folder holding the server's SQLite files: `DB_PATH` (relative to the work directory), else the work directory. */
export function databaseDirectory(
  workDir: string,
  env: Readonly<Record<string, string | undefined>>,
): string {
  return resolve(workDir, env.DB_PATH ?? ".");
}

/** A SQLite file name the routes accept: one path segment, letters, digits, `.`, `_`, `-`, ending `.db`. */
export const SQLITE_FILE_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}\.db$/;

/** `name` with `.db` appended when it lacks it (the original's "Create New Database" did the same). */
export function withDbExtension(name: string): string {
  return name.endsWith(".db") ? name : `${name}.db`;
}

/** Whether `path` is `dir` itself or inside it (both already resolved). */
function isInside(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel);
}

/**
 * The real path of SQLite file `name` in `dir`, refused unless it stays inside `dir` once symbolic links are
 * resolved (spec 07 §2.5: the original compared string prefixes, so `../` and links escaped). A file that does not
 * exist yet is checked through its folder.
 * @throws {ApiError} 422 for a name that is not one `.db` file name; 403 when the real path leaves `dir`.
 */
export async function containedDatabaseFile(dir: string, name: string): Promise<string> {
  if (!SQLITE_FILE_NAME.test(name)) {
    throw new ApiError(
      422,
      "invalid_request",
      `database name ${JSON.stringify(name)}: expected a file name ending in .db (letters, digits, ".", "_", "-"), without a folder`,
    );
  }
  const realDir = await realpath(dir).catch(() => {
    throw ApiError.notFound(`database directory ${dir}`);
  });
  const file = join(realDir, name);
  const real = await realpath(file).catch(() => file);
  if (!isInside(realDir, real)) {
    throw new ApiError(
      403,
      "forbidden",
      `database ${JSON.stringify(name)} resolves outside the database directory`,
    );
  }
  return real;
}

/** A SQLite file of the database directory. */
export interface DatabaseFile {
  readonly name: string;
  readonly size: number;
}

/** The `*.db` files of `dir`, sorted by name. @throws {ApiError} 404 when `dir` does not exist. */
export async function listDatabaseFiles(dir: string): Promise<DatabaseFile[]> {
  const names = await readdir(dir).catch(() => {
    throw ApiError.notFound(`database directory ${dir} (set DB_PATH, or create it)`);
  });
  const files = await Promise.all(
    names
      .filter((name) => SQLITE_FILE_NAME.test(name))
      .sort()
      .map(async (name) => {
        const info = await stat(join(dir, name)).catch(() => null);
        return info?.isFile() ? { name, size: info.size } : null;
      }),
  );
  return files.filter((file): file is DatabaseFile => file !== null);
}
