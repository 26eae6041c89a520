import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { writeFileAtomic } from "../../checkpoint/index.js";
import { KareninaError } from "../../errors/index.js";
import type { ResponseStore } from "./response-store.js";

const ENTRY_FORMAT = "karenina-response-cache/1";
const KEY_PATTERN = /^[0-9a-f]{64}$/;

/** Whether `key` has the shape of a cache key: 64 lower-case hex characters (a SHA-256, see `cacheKey`). */
export function isCacheKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

/** The cache directory or an entry could not be created or written. */
export class ResponseCacheError extends KareninaError {
  override readonly name: string = "ResponseCacheError";

  constructor(
    readonly path: string,
    readonly reason: string,
    options?: ErrorOptions,
  ) {
    super(`${path}: ${reason}`, options);
  }
}

/** What the cache did during a run, for the run summary. */
export interface CacheStats {
  /** `get` calls that returned a stored value. */
  hits: number;
  /** `get` calls that found nothing usable (absent or corrupt entries). */
  misses: number;
  /** Entries written. */
  writes: number;
  /** Entries that existed but could not be read or parsed, or did not match their key; counted as misses too. */
  corrupt: number;
  /** `put` calls that failed (full disk, permissions, a value that is not JSON). */
  writeFailures: number;
}

/**
 * LLM responses on disk, one JSON file per key at `<dir>/<key[0:2]>/<key>.json`, each written atomically
 * (temporary file, then rename), so a reader sees either the whole entry or none. Values must be JSON:
 * typically the response text or parsed object plus its usage. An entry that cannot be read back is a miss,
 * counted in {@link CacheStats.corrupt}, and is overwritten by the next `put`.
 *
 * Concurrent callers of one key are not merged: each misses and calls; the last write wins.
 */
export class ResponseCache implements ResponseStore {
  readonly #stats: CacheStats = { hits: 0, misses: 0, writes: 0, corrupt: 0, writeFailures: 0 };

  private constructor(readonly dir: string) {}

  /**
   * Opens (creating if needed) a cache directory.
   * @throws {ResponseCacheError} when the directory cannot be created.
   */
  static async open(dir: string): Promise<ResponseCache> {
    try {
      await mkdir(dir, { recursive: true });
    } catch (error) {
      throw new ResponseCacheError(dir, `cannot create the response cache (${reasonOf(error)})`, {
        cause: error,
      });
    }
    return new ResponseCache(dir);
  }

  /** A copy of the counters so far. */
  get stats(): CacheStats {
    return { ...this.#stats };
  }

  /**
   * Where the entry of `key` lives.
   * @throws {ResponseCacheError} when `key` is not a 64-character lower-case hex string (see `cacheKey`).
   */
  entryPath(key: string): string {
    if (!isCacheKey(key)) {
      throw new ResponseCacheError(
        this.dir,
        `not a cache key: ${JSON.stringify(key)} (expected SHA-256 hex)`,
      );
    }
    return join(this.dir, key.slice(0, 2), `${key}.json`);
  }

  /** The stored value of `key`, or `undefined` on a miss. Never throws for a missing or corrupt entry. */
  async get<T = unknown>(key: string): Promise<T | undefined> {
    const path = this.entryPath(key);
    let text: string;
    try {
      text = await readFile(path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") this.#stats.corrupt += 1;
      this.#stats.misses += 1;
      return undefined;
    }
    const entry = parseEntry(text, key);
    if (entry === undefined) {
      this.#stats.corrupt += 1;
      this.#stats.misses += 1;
      return undefined;
    }
    this.#stats.hits += 1;
    return entry.value as T;
  }

  /**
   * Stores `value` (any JSON) under `key`, replacing an older entry atomically.
   * @throws {ResponseCacheError} when the entry cannot be written; counted in {@link CacheStats.writeFailures}.
   */
  async put(key: string, value: unknown): Promise<void> {
    const path = this.entryPath(key);
    try {
      if (value === undefined) throw new TypeError("undefined is not a JSON value");
      const text = `${JSON.stringify({ format: ENTRY_FORMAT, key, value })}\n`;
      await mkdir(join(this.dir, key.slice(0, 2)), { recursive: true });
      await writeFileAtomic(path, text);
    } catch (error) {
      this.#stats.writeFailures += 1;
      const cause = (error as Error).cause ?? error;
      throw new ResponseCacheError(path, `cannot write the cache entry (${reasonOf(cause)})`, { cause });
    }
    this.#stats.writes += 1;
  }
}

function reasonOf(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? (error as Error).message;
}

function parseEntry(text: string, key: string): { value: unknown } | undefined {
  let entry: unknown;
  try {
    entry = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof entry !== "object" || entry === null) return undefined;
  const record = entry as Record<string, unknown>;
  if (record.format !== ENTRY_FORMAT || record.key !== key || !("value" in record)) return undefined;
  return { value: record.value };
}
