import type pg from "pg";
import { type CacheStats, isCacheKey, ResponseCacheError, type ResponseStore } from "../llm/index.js";
import { RESPONSE_CACHE_TABLE } from "./fleet-schema-cache.js";

/** How the table appears in errors (`ResponseCacheError.path`). */
const WHERE = `PostgreSQL table ${RESPONSE_CACHE_TABLE}`;

/**
 * LLM responses shared by a fleet of workers, one row per cache key in `karenina_fleet_response_cache`
 * (`RESPONSE_CACHE_SCHEMA_SQL` applied). A `get` is one SELECT, a `put` one upsert: the last write wins, as in
 * the on-disk {@link ResponseCache}. A row whose text is not JSON is a miss, counted in
 * {@link CacheStats.corrupt}, and is overwritten by the next `put`.
 *
 * A value one worker `put`s is what every other worker's `get` of the same key returns.
 */
export class PostgresResponseCache implements ResponseStore {
  readonly #stats: CacheStats = { hits: 0, misses: 0, writes: 0, corrupt: 0, writeFailures: 0 };

  /** @param pool where the table lives; owned by the caller. */
  constructor(private readonly pool: pg.Pool) {}

  /** A copy of the counters so far, in this process. */
  get stats(): CacheStats {
    return { ...this.#stats };
  }

  /**
   * The stored value of `key`, or `undefined` on a miss. Never throws for a missing or corrupt row.
   * @throws {ResponseCacheError} when `key` is not a cache key, or PostgreSQL cannot be queried.
   */
  async get<T = unknown>(key: string): Promise<T | undefined> {
    checkKey(key);
    let text: string | undefined;
    try {
      const { rows } = await this.pool.query<{ value: string }>(
        `SELECT value FROM ${RESPONSE_CACHE_TABLE} WHERE key = $1`,
        [key],
      );
      text = rows[0]?.value;
    } catch (error) {
      throw new ResponseCacheError(
        WHERE,
        `cannot read the cache entry ${key} (${(error as Error).message})`,
        {
          cause: error,
        },
      );
    }
    if (text === undefined) {
      this.#stats.misses += 1;
      return undefined;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.#stats.corrupt += 1;
      this.#stats.misses += 1;
      return undefined;
    }
    this.#stats.hits += 1;
    return value as T;
  }

  /**
   * Stores `value` (any JSON) under `key`, replacing an older row.
   * @throws {ResponseCacheError} when `key` is not a cache key, or the row cannot be written (a value that is
   * not JSON, PostgreSQL unreachable); write failures are counted in {@link CacheStats.writeFailures}.
   */
  async put(key: string, value: unknown): Promise<void> {
    checkKey(key);
    try {
      const text = JSON.stringify(value);
      if (text === undefined) throw new TypeError(`${typeof value} is not a JSON value`);
      await this.pool.query(
        `INSERT INTO ${RESPONSE_CACHE_TABLE} (key, value) VALUES ($1, $2)
         ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, created_at = now()`,
        [key, text],
      );
    } catch (error) {
      this.#stats.writeFailures += 1;
      throw new ResponseCacheError(
        WHERE,
        `cannot write the cache entry ${key} (${(error as Error).message})`,
        {
          cause: error,
        },
      );
    }
    this.#stats.writes += 1;
  }
}

function checkKey(key: string): void {
  if (!isCacheKey(key)) {
    throw new ResponseCacheError(WHERE, `not a cache key: ${JSON.stringify(key)} (expected SHA-256 hex)`);
  }
}
