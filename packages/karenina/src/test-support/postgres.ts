/**
 * PostgreSQL for tests. Once per test run, the Vitest global setup (postgres-global-setup.ts) uses
 * `KARENINA_TEST_PG_URL` or starts a throwaway cluster (initdb in a temporary directory, a free port on
 * 127.0.0.1, its socket in that directory) and provides its admin URL; each test file then creates its own
 * database, so files run in parallel. Without PostgreSQL the tests are skipped with the reason, unless
 * `KARENINA_REQUIRE_PG` is set (as CI does): then the test files fail.
 */
import pg from "pg";
import { inject } from "vitest";

/** What the global setup provides: an admin URL, or why there is none. */
export interface ProvidedPostgres {
  readonly adminUrl: string | null;
  readonly reason: string | null;
}

declare module "vitest" {
  export interface ProvidedContext {
    kareninaPostgres: ProvidedPostgres;
  }
}

/**
 * The PostgreSQL admin URL for this test file, or the reason the PostgreSQL tests are skipped.
 * @throws when `KARENINA_REQUIRE_PG` is set and there is no PostgreSQL: the file fails instead of skipping.
 */
export function postgresForTests():
  | { adminUrl: string; skipReason: null }
  | { adminUrl: null; skipReason: string } {
  const provided = inject("kareninaPostgres");
  if (provided?.adminUrl) return { adminUrl: provided.adminUrl, skipReason: null };
  const reason = provided?.reason ?? "the PostgreSQL global setup did not run (see vitest.config.ts)";
  if (process.env.KARENINA_REQUIRE_PG) {
    throw new Error(`KARENINA_REQUIRE_PG is set but PostgreSQL is not available: ${reason}`);
  }
  console.warn(`PostgreSQL tests skipped: ${reason}`);
  return { adminUrl: null, skipReason: reason };
}

/** A database of its own for one test file. */
export interface TestDatabase {
  readonly url: string;
  /** Empties it: drops and recreates the `public` schema (no connection may be open). */
  reset(): Promise<void>;
  /** Drops it. */
  drop(): Promise<void>;
}

/** Runs one SQL text on its own connection. */
async function execute(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** Creates a database with a random name on the server of `adminUrl`. */
export async function createTestDatabase(adminUrl: string): Promise<TestDatabase> {
  const name = `karenina_test_${Math.random().toString(36).slice(2, 12)}`;
  await execute(adminUrl, `CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    reset: () => execute(url.toString(), "DROP SCHEMA public CASCADE; CREATE SCHEMA public"),
    drop: () => execute(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

/**
 * Ends `pool` and waits until each of its connections is closed: `pool.end()` resolves before they are, and a
 * `drop()` (which forces connections out) racing them makes the server kill them, an unhandled error in the test.
 */
export async function endPool(pool: pg.Pool): Promise<void> {
  const open = pool.totalCount;
  let closed = 0;
  const allClosed = new Promise<void>((resolve) => {
    if (open === 0) resolve();
    pool.on("remove", () => {
      closed += 1;
      if (closed >= open) resolve();
    });
  });
  await pool.end();
  await allClosed;
}
