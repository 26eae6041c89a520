import { existsSync } from "node:fs";
import type Database from "better-sqlite3";
import {
  CompiledQuery,
  type DatabaseConnection,
  Kysely,
  PostgresDialect,
  SqliteAdapter,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
} from "kysely";
import type pg from "pg";
import { type Dialect, POSTGRES, SQLITE } from "./dialect.js";
import { causeText, StorageOpenError } from "./errors.js";
import type { StorageDatabase } from "./schema.js";
import { isInMemory, type StorageTarget } from "./url.js";

/** How long a SQLite writer waits for another process's write to finish before giving up. */
const BUSY_TIMEOUT_MS = 30_000;

/** An open database: the query builder and its dialect. */
export interface Connection {
  readonly db: Kysely<StorageDatabase>;
  readonly dialect: Dialect;
}

// Kysely begins SQLite transactions with a plain (deferred) BEGIN. A deferred transaction that reads and then
// writes fails at once with SQLITE_BUSY when another process wrote in between, whatever the busy timeout.
// BEGIN IMMEDIATE takes the write lock up front, so concurrent writers wait their turn instead.
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("begin immediate"));
  }
}

// SQLite runs DDL in transactions; saying so makes the migrator run migrations in one (immediate) transaction,
// so two processes opening a new database one instant apart do not both create the tables.
class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

class KareninaSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;

  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }
  override createDriver(): SqliteDriver {
    return new ImmediateSqliteDriver(this.#config);
  }
  override createAdapter(): SqliteAdapter {
    return new TransactionalDdlSqliteAdapter();
  }
}

// The drivers are loaded on first use: a program that opens only one kind of database loads one driver.
async function openSqlite(file: string, database: string, existingOnly: boolean): Promise<Connection> {
  const { default: Database } = await import("better-sqlite3");
  if (existingOnly && !isInMemory(file) && !existsSync(file)) {
    throw new StorageOpenError(
      database,
      "no such database file; nothing was created (a command that only reads never creates a database)",
    );
  }
  let handle: Database.Database | undefined;
  try {
    handle = new Database(file, { fileMustExist: existingOnly && !isInMemory(file) });
    handle.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    // Reading the journal mode is the first read of the file: a file that is not a database fails here.
    // A database karenina made is in WAL mode already (it is kept in the file): a reader changes nothing.
    if (!isInMemory(file)) handle.pragma(existingOnly ? "journal_mode" : "journal_mode = WAL");
    handle.pragma("foreign_keys = ON");
    handle.pragma("synchronous = NORMAL");
  } catch (error) {
    handle?.close();
    throw new StorageOpenError(database, `cannot open the SQLite database: ${causeText(error)}`, {
      cause: error,
    });
  }
  return { db: new Kysely({ dialect: new KareninaSqliteDialect({ database: handle }) }), dialect: SQLITE };
}

// JSON comes back as text, as from SQLite (we parse it ourselves); counts (int8) as numbers, not strings.
const pgTypes = (types: typeof pg.types) => ({
  getTypeParser: ((oid: number, format?: "text" | "binary") => {
    const { builtins } = types;
    if (oid === builtins.INT8) return Number;
    if (oid === builtins.JSON || oid === builtins.JSONB) return (text: string) => text;
    return types.getTypeParser(oid, format);
  }) as typeof pg.types.getTypeParser,
});

async function openPostgres(connectionString: string, database: string): Promise<Connection> {
  const { default: pg } = await import("pg");
  const pool = new pg.Pool({
    connectionString,
    max: 10,
    connectionTimeoutMillis: 15_000,
    types: pgTypes(pg.types),
  });
  // An idle pooled client losing its server emits "error" on the pool; unhandled it would end the process.
  // The next query on the pool then fails and reports it.
  pool.on("error", () => {});
  try {
    (await pool.connect()).release();
  } catch (error) {
    await pool.end();
    throw new StorageOpenError(database, `cannot connect to PostgreSQL: ${causeText(error)}`, {
      cause: error,
    });
  }
  return { db: new Kysely({ dialect: new PostgresDialect({ pool }) }), dialect: POSTGRES };
}

/**
 * Opens a connection (SQLite: WAL, busy timeout, foreign keys) and checks the database answers. With
 * `existingOnly`, a SQLite file that does not exist is an error, not a new database.
 */
export async function connect(
  target: StorageTarget,
  database: string,
  options: { existingOnly?: boolean } = {},
): Promise<Connection> {
  return target.dialect === "sqlite"
    ? openSqlite(target.file, database, options.existingOnly === true)
    : openPostgres(target.connectionString, database);
}
