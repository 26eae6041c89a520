/**
 * The databases the storage tests run on: a SQLite file in a temporary directory, and PostgreSQL when the
 * Vitest global setup provides it (see test-support/postgres.ts); and SQL run as an outside tool would run it.
 */
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, describe, test } from "vitest";
import { createTestDatabase, postgresForTests, type TestDatabase } from "../../test-support/postgres.js";

/** A place to store into. */
export interface StorageTarget {
  readonly name: string;
  /** The URL of an empty database. */
  fresh(): Promise<string>;
}

export async function tempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), "karenina-storage-"));
}

/**
 * SQLite, and PostgreSQL when available (else a skipped suite saying why). Call at the top level of a test
 * file: it registers the hook that drops the file's PostgreSQL database.
 */
export function storageTargets(): StorageTarget[] {
  const postgres = postgresForTests();
  const targets: StorageTarget[] = [{ name: "SQLite", fresh: async () => join(await tempDir(), "karenina.db") }];
  if (postgres.adminUrl === null) {
    describe.skip(`storage on PostgreSQL — skipped: ${postgres.skipReason}`, () => {
      test("the storage suite", () => {});
    });
    return targets;
  }
  const adminUrl = postgres.adminUrl;
  let database: TestDatabase | undefined;
  afterAll(async () => {
    await database?.drop();
  });
  targets.push({
    name: "PostgreSQL",
    async fresh() {
      database ??= await createTestDatabase(adminUrl);
      await database.reset();
      return database.url;
    },
  });
  return targets;
}

/** Runs SQL on a database as an outside tool would (not through the code under test). */
export async function rawQuery(url: string, text: string): Promise<Record<string, unknown>[]> {
  if (url.startsWith("postgres")) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query(text)).rows;
    } finally {
      await client.end();
    }
  }
  const db = new Database(url);
  try {
    const statement = db.prepare(text);
    if (statement.reader) return statement.all() as Record<string, unknown>[];
    statement.run();
    return [];
  } finally {
    db.close();
  }
}
