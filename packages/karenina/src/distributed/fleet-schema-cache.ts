/** Name of the fleet's shared response cache table (see postgres-response-cache.ts). */
export const RESPONSE_CACHE_TABLE = "karenina_fleet_response_cache";

/**
 * DDL of the shared response cache. Idempotent: run by `ensureFleetSchema` on every start. `value` is the JSON
 * text as written, not `jsonb`: a reader parses it and treats a row that does not parse as a corrupt miss.
 */
export const RESPONSE_CACHE_SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS karenina_fleet_response_cache (
  key text PRIMARY KEY,
  value text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
`;
