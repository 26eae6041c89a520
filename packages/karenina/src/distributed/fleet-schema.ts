import type pg from "pg";
import { RESPONSE_CACHE_SCHEMA_SQL } from "./fleet-schema-cache.js";
import { CALL_LIMITS_SCHEMA_SQL } from "./fleet-schema-limits.js";

/** The fleet's runs and answer groups (see fleet-runs.ts). */
const RUNS_SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS karenina_fleet_runs (
  run_id text PRIMARY KEY,
  queue text NOT NULL,
  benchmark_name text NOT NULL,
  checkpoint text NOT NULL,
  config json NOT NULL,
  settings json NOT NULL,
  tasks_total integer NOT NULL,
  groups_total integer NOT NULL,
  groups_done integer NOT NULL DEFAULT 0,
  group_errors integer NOT NULL DEFAULT 0,
  status text NOT NULL,
  calls bigint NOT NULL DEFAULT 0,
  replayed_calls bigint NOT NULL DEFAULT 0,
  cache_hits bigint NOT NULL DEFAULT 0,
  input_tokens bigint NOT NULL DEFAULT 0,
  output_tokens bigint NOT NULL DEFAULT 0,
  cost_usd double precision NOT NULL DEFAULT 0,
  unpriced_calls bigint NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS karenina_fleet_groups (
  run_id text NOT NULL REFERENCES karenina_fleet_runs(run_id) ON DELETE CASCADE,
  group_key text NOT NULL,
  started_at timestamptz,
  finished_at timestamptz,
  worker text,
  deliveries integer NOT NULL DEFAULT 0,
  error text,
  PRIMARY KEY (run_id, group_key)
);
CREATE INDEX IF NOT EXISTS karenina_fleet_groups_unfinished
  ON karenina_fleet_groups (run_id) WHERE finished_at IS NULL;
`;

const SCHEMA_PARTS: readonly string[] = [RUNS_SCHEMA_SQL, CALL_LIMITS_SCHEMA_SQL, RESPONSE_CACHE_SCHEMA_SQL];

/**
 * Creates the fleet's tables and functions when missing (idempotent DDL), under an advisory lock so that
 * workers starting together do not race on it.
 */
export async function ensureFleetSchema(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query("SELECT pg_advisory_lock(hashtext('karenina_fleet_schema'))");
    try {
      for (const part of SCHEMA_PARTS) await client.query(part);
    } finally {
      await client.query("SELECT pg_advisory_unlock(hashtext('karenina_fleet_schema'))");
    }
  } finally {
    client.release();
  }
}
