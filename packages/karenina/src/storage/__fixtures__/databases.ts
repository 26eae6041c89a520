/**
 * The databases the storage tests run on: a SQLite file in a temporary directory, and PostgreSQL when the
 * Vitest global setup provides it (see test-support/postgres.ts); and SQL run as an outside tool would run it.
 */
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, afterEach, describe, test } from "vitest";
import { openStorage, type Storage } from "../storage.js";
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

/** The storages a test opened on one target, closed after it; `url` is the database the last `open` used. */
export interface StoragesPerTest {
  /** Opens `at`, else a fresh database of the target. */
  open(at?: string): Promise<Storage>;
  readonly url: string;
}

/** Registers the hook that closes, after each test, every storage it opened with the returned `open`. */
export function storagesPerTest(target: StorageTarget): StoragesPerTest {
  const opened: Storage[] = [];
  let url = "";
  afterEach(async () => {
    for (const storage of opened.splice(0)) await storage.close();
  });
  return {
    async open(at?: string) {
      url = at ?? (await target.fresh());
      const storage = await openStorage(url);
      opened.push(storage);
      return storage;
    },
    get url() {
      return url;
    },
  };
}
