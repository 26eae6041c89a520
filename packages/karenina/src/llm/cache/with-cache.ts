import { ResponseCacheError } from "./response-cache.js";
import type { ResponseStore } from "./response-store.js";

/** How {@link withCache} uses the cache for one call. */
export interface WithCacheOptions {
  /**
   * Skip the cache entirely: neither read nor write, counters untouched. Used to force a fresh call
   * without disturbing entries that other runs rely on.
   */
  bypass?: boolean;
}

/**
 * Returns the cached value of `key` (a hit) or runs `call` and stores its result (a miss).
 * A failed `call` rejects as usual and nothing is stored, so errors are never cached. A result that cannot
 * be stored is still returned; the failure is counted in `cache.stats.writeFailures`.
 */
export async function withCache<T>(
  cache: ResponseStore,
  key: string,
  call: () => Promise<T>,
  options: WithCacheOptions = {},
): Promise<T> {
  if (options.bypass) return call();
  const cached = await cache.get<T>(key);
  if (cached !== undefined) return cached;
  const value = await call();
  try {
    await cache.put(key, value);
  } catch (error) {
    if (!(error instanceof ResponseCacheError)) throw error;
  }
  return value;
}
