import type { CacheStats } from "./response-cache.js";

/**
 * Where a run keeps LLM responses by cache key (see `cacheKey`): the on-disk {@link ResponseCache} of one
 * machine, or a store shared by a fleet of workers (a database table). Values are JSON. `get` never throws for
 * a missing or unreadable entry (it is a miss); `put` replaces an older entry.
 */
export interface ResponseStore {
  get<T = unknown>(key: string): Promise<T | undefined>;
  put(key: string, value: unknown): Promise<void>;
  /** What the store did so far, in this process. */
  readonly stats: CacheStats;
}
