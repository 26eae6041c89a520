import type pg from "pg";
import { describeStorageUrl } from "../storage/index.js";
import { FleetDatabaseError } from "./errors.js";
import { FleetRuns } from "./fleet-runs.js";
import { ensureFleetSchema } from "./fleet-schema.js";

/** Whether a database URL is PostgreSQL (the one database a fleet can share). */
export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//.test(url);
}

/** A connection to a fleet's database: its runs and a pool for the shared limits and cache. */
export interface Fleet {
  readonly url: string;
  /** The database as messages name it (password masked). */
  readonly database: string;
  readonly pool: pg.Pool;
  readonly runs: FleetRuns;
  close(): Promise<void>;
}

/**
 * Connects to a fleet's PostgreSQL database and creates the fleet's tables when missing.
 * @throws {FleetDatabaseError} when the URL is not PostgreSQL.
 */
export async function openFleet(url: string, options: { poolSize?: number } = {}): Promise<Fleet> {
  if (!isPostgresUrl(url)) throw new FleetDatabaseError(url);
  // pg loads when a fleet is opened, not with the library.
  const { default: driver } = await import("pg");
  const pool = new driver.Pool({ connectionString: url, max: options.poolSize ?? 8 });
  // An idle client's error (the server restarting) must not crash the worker; the next query reports it.
  pool.on("error", () => {});
  try {
    await ensureFleetSchema(pool);
  } catch (error) {
    await pool.end().catch(() => {});
    throw error;
  }
  return {
    url,
    database: describeStorageUrl(url),
    pool,
    runs: new FleetRuns(pool),
    close: () => pool.end(),
  };
}
