import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { LlmCallError } from "../errors.js";
import { userMessage } from "../messages.js";
import { cacheKey } from "./cache-key.js";
import { ResponseCache, ResponseCacheError } from "./response-cache.js";
import { withCache } from "./with-cache.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "karenina-cache-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const key = cacheKey({ modelIdentity: "m", messages: [userMessage("hi")], parameters: {}, replicate: 0 });
const response = { content: "hello", usage: { input_tokens: 3, output_tokens: 1, total_tokens: 4 } };

describe("ResponseCache", () => {
  test("a stored value reads back from its own file under a two-character folder", async () => {
    const cache = await ResponseCache.open(join(dir, "cache"));
    await cache.put(key, response);
    const path = join(dir, "cache", key.slice(0, 2), `${key}.json`);
    expect(cache.entryPath(key)).toBe(path);
    expect(JSON.parse(await readFile(path, "utf8")).value).toEqual(response);
    expect(await cache.get(key)).toEqual(response);
    expect(await (await ResponseCache.open(join(dir, "cache"))).get(key)).toEqual(response);
    expect(cache.stats).toEqual({ hits: 1, misses: 0, writes: 1, corrupt: 0, writeFailures: 0 });
  });

  test("an absent entry is a miss", async () => {
    const cache = await ResponseCache.open(dir);
    expect(await cache.get(key)).toBeUndefined();
    expect(cache.stats).toMatchObject({ hits: 0, misses: 1, corrupt: 0 });
  });

  test("a corrupt entry is a counted miss, and the next put repairs it", async () => {
    const cache = await ResponseCache.open(dir);
    const path = cache.entryPath(key);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, '{"format":"karenina-response-cache/1","key":"', "utf8");
    expect(await cache.get(key)).toBeUndefined();
    await cache.put(key, response);
    expect(await cache.get(key)).toEqual(response);
    expect(cache.stats).toEqual({ hits: 1, misses: 1, writes: 1, corrupt: 1, writeFailures: 0 });
  });

  test("an entry stored under another key's name is treated as corrupt", async () => {
    const cache = await ResponseCache.open(dir);
    const other = cacheKey({ modelIdentity: "other", messages: [], parameters: {}, replicate: 0 });
    await cache.put(other, response);
    await mkdir(dirname(cache.entryPath(key)), { recursive: true });
    await writeFile(cache.entryPath(key), await readFile(cache.entryPath(other), "utf8"));
    expect(await cache.get(key)).toBeUndefined();
    expect(cache.stats.corrupt).toBe(1);
  });

  test("writes leave no temporary files behind", async () => {
    const cache = await ResponseCache.open(dir);
    await cache.put(key, response);
    await cache.put(key, { ...response, content: "again" });
    expect(await readdir(join(dir, key.slice(0, 2)))).toEqual([`${key}.json`]);
  });

  test("a key that is not SHA-256 hex is rejected rather than used as a path", async () => {
    const cache = await ResponseCache.open(dir);
    await expect(cache.get("../../etc/passwd")).rejects.toBeInstanceOf(ResponseCacheError);
  });

  test("a value that is not JSON fails to store and is counted", async () => {
    const cache = await ResponseCache.open(dir);
    await expect(cache.put(key, { n: 1n })).rejects.toBeInstanceOf(ResponseCacheError);
    expect(cache.stats.writeFailures).toBe(1);
  });
});

describe("withCache", () => {
  test("the first call runs and is stored; the second is served from disk", async () => {
    const cache = await ResponseCache.open(dir);
    let calls = 0;
    const call = async () => {
      calls += 1;
      return response;
    };
    expect(await withCache(cache, key, call)).toEqual(response);
    expect(await withCache(cache, key, call)).toEqual(response);
    expect(calls).toBe(1);
    expect(cache.stats).toEqual({ hits: 1, misses: 1, writes: 1, corrupt: 0, writeFailures: 0 });
  });

  test("a failed call is not cached, so the next attempt calls again", async () => {
    const cache = await ResponseCache.open(dir);
    const failure = new LlmCallError("boom", { category: "server_error", model: "m" });
    await expect(withCache(cache, key, () => Promise.reject(failure))).rejects.toBe(failure);
    expect(await cache.get(key)).toBeUndefined();
    expect(await withCache(cache, key, async () => response)).toEqual(response);
    expect(cache.stats.writes).toBe(1);
  });

  test("bypass neither reads nor writes", async () => {
    const cache = await ResponseCache.open(dir);
    await cache.put(key, response);
    const fresh = { ...response, content: "fresh" };
    expect(await withCache(cache, key, async () => fresh, { bypass: true })).toEqual(fresh);
    expect(await cache.get(key)).toEqual(response);
    expect(cache.stats).toEqual({ hits: 1, misses: 0, writes: 1, corrupt: 0, writeFailures: 0 });
  });

  test("a result that cannot be stored is still returned", async () => {
    const cache = await ResponseCache.open(dir);
    const value = { n: 1n };
    expect(await withCache(cache, key, async () => value)).toBe(value);
    expect(cache.stats.writeFailures).toBe(1);
  });
});
