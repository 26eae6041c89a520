import type { Kysely } from "kysely";
import type { Dialect } from "./dialect.js";
import type { StorageDatabase } from "./schema.js";

/** What every storage operation works with: the query builder (or a transaction), its dialect, a name. */
export interface StorageContext {
  readonly db: Kysely<StorageDatabase>;
  readonly dialect: Dialect;
  /** The database as messages name it (see `describeStorageUrl`). */
  readonly database: string;
  /** The SQLite file, when the database is one (not in memory): readers with their own connection open it. */
  readonly sqliteFile?: string;
}

/** Runs `work` in one transaction (SQLite: BEGIN IMMEDIATE), committed when it resolves. */
export function inTransaction<T>(ctx: StorageContext, work: (tx: StorageContext) => Promise<T>): Promise<T> {
  return ctx.db.transaction().execute((trx) => work({ ...ctx, db: trx }));
}

/** Now, as the ISO-8601 UTC text every timestamp column holds. */
export const nowIso = (): string => new Date().toISOString();

/**
 * Rows per multi-row INSERT: well under the bound-parameter limits (SQLite 32766, PostgreSQL 65535) for the
 * widest table.
 */
export const INSERT_CHUNK = 200;

/** The items in slices of at most `size`. */
export function* chunks<T>(items: readonly T[], size = INSERT_CHUNK): Generator<T[]> {
  for (let start = 0; start < items.length; start += size) yield items.slice(start, start + size);
}
