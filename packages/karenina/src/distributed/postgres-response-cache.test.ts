import pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { cacheKey, ResponseCacheError, userMessage } from "../llm/index.js";
import {
  createTestDatabase,
  endPool,
  postgresForTests,
  type TestDatabase,
} from "../test-support/postgres.js";
import { RESPONSE_CACHE_SCHEMA_SQL } from "./fleet-schema-cache.js";
import { PostgresResponseCache } from "./postgres-response-cache.js";

const { adminUrl, skipReason } = postgresForTests();

const keyOf = (prompt: string) =>
  cacheKey({
    modelIdentity: "openai/test-model@http://127.0.0.1",
    messages: [userMessage(prompt)],
    parameters: { temperature: 0 },
    replicate: 1,
  });

describe.skipIf(skipReason !== null)("PostgresResponseCache on a real PostgreSQL", () => {
  let db: TestDatabase;
  let workerA: pg.Pool;
  let workerB: pg.Pool;

  beforeAll(async () => {
    db = await createTestDatabase(adminUrl as string);
    workerA = new pg.Pool({ connectionString: db.url, max: 2 });
    workerB = new pg.Pool({ connectionString: db.url, max: 2 });
    await workerA.query(RESPONSE_CACHE_SCHEMA_SQL);
    await workerA.query(RESPONSE_CACHE_SCHEMA_SQL); // idempotent
  });

  afterAll(async () => {
    if (workerA) await endPool(workerA);
    if (workerB) await endPool(workerB);
    await db?.drop();
  });

  test("a value one worker puts is a hit for another", async () => {
    const writer = new PostgresResponseCache(workerA);
    const reader = new PostgresResponseCache(workerB);
    const key = keyOf("shared");
    const value = { text: "venetoclax", usage: { inputTokens: 12, outputTokens: 3 }, note: 'ü \u0000 "q"' };

    expect(await reader.get(key)).toBeUndefined();
    await writer.put(key, value);

    expect(await reader.get(key)).toEqual(value);
    expect(reader.stats).toEqual({ hits: 1, misses: 1, writes: 0, corrupt: 0, writeFailures: 0 });
    expect(writer.stats).toEqual({ hits: 0, misses: 0, writes: 1, corrupt: 0, writeFailures: 0 });
  });

  test("a second put of a key replaces the first (last write wins)", async () => {
    const first = new PostgresResponseCache(workerA);
    const second = new PostgresResponseCache(workerB);
    const key = keyOf("overwritten");

    await first.put(key, "old");
    await second.put(key, ["new", 2]);

    expect(await first.get(key)).toEqual(["new", 2]);
  });

  test("a row that is not JSON is a miss counted as corrupt, and the next put repairs it", async () => {
    const cache = new PostgresResponseCache(workerA);
    const key = keyOf("corrupt");
    await workerB.query("INSERT INTO karenina_fleet_response_cache (key, value) VALUES ($1, $2)", [
      key,
      '{"text": "trunc',
    ]);

    expect(await cache.get(key)).toBeUndefined();
    expect(cache.stats).toMatchObject({ hits: 0, misses: 1, corrupt: 1 });

    await cache.put(key, { text: "whole" });
    expect(await cache.get(key)).toEqual({ text: "whole" });
  });

  test("a key that is not SHA-256 hex is refused with a clear error, before any query", async () => {
    const cache = new PostgresResponseCache(workerA);

    await expect(cache.get("../../etc/passwd")).rejects.toThrow(ResponseCacheError);
    await expect(cache.put("ABC", 1)).rejects.toThrow(/not a cache key: "ABC" \(expected SHA-256 hex\)/);
    expect(cache.stats).toEqual({ hits: 0, misses: 0, writes: 0, corrupt: 0, writeFailures: 0 });
  });

  test("a value that is not JSON is a write failure, not a row", async () => {
    const cache = new PostgresResponseCache(workerA);
    const key = keyOf("undefined");

    await expect(cache.put(key, undefined)).rejects.toThrow(/cannot write the cache entry/);
    await expect(cache.put(key, { n: 1n })).rejects.toThrow(ResponseCacheError);

    expect(cache.stats).toMatchObject({ writes: 0, writeFailures: 2 });
    expect(await cache.get(key)).toBeUndefined();
  });

  test("PostgreSQL unreachable: get and put reject with ResponseCacheError", async () => {
    const gone = new pg.Pool({ connectionString: db.url, max: 1 });
    await gone.end();
    const cache = new PostgresResponseCache(gone);
    const key = keyOf("unreachable");

    await expect(cache.get(key)).rejects.toThrow(ResponseCacheError);
    await expect(cache.put(key, 1)).rejects.toThrow(ResponseCacheError);
    expect(cache.stats.writeFailures).toBe(1);
  });
});
