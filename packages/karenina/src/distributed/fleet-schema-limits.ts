/**
 * Tables and functions of the fleet's shared call limits (see postgres-call-limits.ts). Idempotent: run by
 * `ensureFleetSchema` on every start.
 *
 * Locking order, everywhere: the scope's global row (`endpoint = '*'`), then an endpoint row, then permit rows.
 * Taking a permit locks the global row, so all takes of one run are serialised and each counts what the
 * previous one committed (READ COMMITTED: every statement of a VOLATILE plpgsql function takes a fresh
 * snapshot, which is why the counts are statements of their own, after the locks). Releasing locks only its
 * endpoint row, then deletes its permit. The sweep of expired permits skips rows another transaction holds
 * (a renewal in flight): it never waits on permit rows, so it cannot deadlock with renewals, which lock
 * several permit rows in no particular order.
 */

/** The NOTIFY channel a release signals on, with the run's scope as payload. */
export const FLEET_PERMITS_CHANNEL = "karenina_fleet_permits";

/** The pseudo-endpoint that holds a run's global limit. */
export const GLOBAL_ENDPOINT = "*";

/** DDL of the shared call limits: `karenina_fleet_endpoints`, `karenina_fleet_permits` and their functions. */
export const CALL_LIMITS_SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS karenina_fleet_endpoints (
  scope text NOT NULL,
  endpoint text NOT NULL,
  cap integer NOT NULL CHECK (cap >= 1),
  current_limit integer NOT NULL CHECK (current_limit >= 1),
  paused_until timestamptz NOT NULL DEFAULT '-infinity',
  success_streak integer NOT NULL DEFAULT 0,
  PRIMARY KEY (scope, endpoint)
);

CREATE TABLE IF NOT EXISTS karenina_fleet_permits (
  id bigserial PRIMARY KEY,
  scope text NOT NULL,
  endpoint text NOT NULL,
  holder text NOT NULL,
  taken_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  expires_at timestamptz NOT NULL
);

CREATE INDEX IF NOT EXISTS karenina_fleet_permits_scope_endpoint
  ON karenina_fleet_permits (scope, endpoint);

-- Returns a permit id, or a null id when the limits are full (wait_seconds null: wait for a release; the
-- refusal is announced, payload "<scope>\twant") or the endpoint is paused (wait_seconds: until the pause ends).
CREATE OR REPLACE FUNCTION karenina_fleet_take_permit(
  p_scope text,
  p_endpoint text,
  p_holder text,
  p_cap integer,
  p_global_cap integer,
  p_lease_seconds double precision,
  OUT permit_id bigint,
  OUT wait_seconds double precision
) LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
  v_global karenina_fleet_endpoints%ROWTYPE;
  v_endpoint karenina_fleet_endpoints%ROWTYPE;
  v_now timestamptz;
  v_held_global integer;
  v_held_endpoint integer;
BEGIN
  -- The first caller of a run sets its caps; the rows are inserted in locking order (global first).
  INSERT INTO karenina_fleet_endpoints (scope, endpoint, cap, current_limit)
  VALUES (p_scope, '*', p_global_cap, p_global_cap), (p_scope, p_endpoint, p_cap, p_cap)
  ON CONFLICT (scope, endpoint) DO NOTHING;
  SELECT * INTO v_global FROM karenina_fleet_endpoints
   WHERE scope = p_scope AND endpoint = '*' FOR UPDATE;
  SELECT * INTO v_endpoint FROM karenina_fleet_endpoints
   WHERE scope = p_scope AND endpoint = p_endpoint FOR UPDATE;
  -- clock_timestamp, not now(): now() is when the call started, before it waited for the locks.
  v_now := clock_timestamp();
  IF v_endpoint.paused_until > v_now THEN
    wait_seconds := extract(epoch FROM v_endpoint.paused_until - v_now);
    RETURN;
  END IF;
  DELETE FROM karenina_fleet_permits WHERE id IN (
    SELECT id FROM karenina_fleet_permits
     WHERE scope = p_scope AND expires_at < v_now
       FOR UPDATE SKIP LOCKED);
  SELECT count(*) INTO v_held_global FROM karenina_fleet_permits WHERE scope = p_scope;
  SELECT count(*) INTO v_held_endpoint FROM karenina_fleet_permits
   WHERE scope = p_scope AND endpoint = p_endpoint;
  IF v_held_global >= v_global.current_limit OR v_held_endpoint >= v_endpoint.current_limit THEN
    -- Refused: workers keeping idle permits for their next call give them back.
    PERFORM pg_notify('karenina_fleet_permits', p_scope || E'\twant');
    RETURN;
  END IF;
  INSERT INTO karenina_fleet_permits (scope, endpoint, holder, expires_at)
  VALUES (p_scope, p_endpoint, p_holder, v_now + make_interval(secs => p_lease_seconds))
  RETURNING id INTO permit_id;
END
$fn$;

-- Ends a permit: p_outcome is 'success' (p_successes calls succeeded on it: a cut limit grows by 1 for every
-- p_recover_after successes in a row), 'rate_limited' (the limit halves, minimum 1, and the endpoint pauses
-- p_pause_seconds) or 'failure' (no change). The outcome applies even when the permit already expired;
-- waiters are woken either way, and a 429 is announced (payload "<scope>\t429") so that every worker stops
-- reusing the permits it took before it.
CREATE OR REPLACE FUNCTION karenina_fleet_release_permit(
  p_id bigint,
  p_scope text,
  p_endpoint text,
  p_outcome text,
  p_pause_seconds double precision,
  p_recover_after integer,
  p_successes integer
) RETURNS void LANGUAGE plpgsql VOLATILE AS $fn$
BEGIN
  IF p_outcome = 'success' THEN
    UPDATE karenina_fleet_endpoints
       SET current_limit = least(cap, current_limit + (success_streak + p_successes) / p_recover_after),
           success_streak = (success_streak + p_successes) % p_recover_after
     WHERE scope = p_scope AND endpoint = p_endpoint AND current_limit < cap AND p_successes > 0;
  ELSIF p_outcome = 'rate_limited' THEN
    UPDATE karenina_fleet_endpoints
       SET success_streak = 0,
           current_limit = greatest(1, current_limit / 2),
           paused_until = CASE WHEN p_pause_seconds > 0
                               THEN greatest(paused_until, clock_timestamp() + make_interval(secs => p_pause_seconds))
                               ELSE paused_until END
     WHERE scope = p_scope AND endpoint = p_endpoint;
  ELSIF p_outcome <> 'failure' THEN
    RAISE EXCEPTION 'karenina_fleet_release_permit: unknown outcome %', p_outcome;
  END IF;
  DELETE FROM karenina_fleet_permits WHERE id = p_id;
  PERFORM pg_notify('karenina_fleet_permits',
    CASE WHEN p_outcome = 'rate_limited' THEN p_scope || E'\t429' ELSE p_scope END);
END
$fn$;
`;
