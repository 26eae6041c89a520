export { CacheKeyError, type CacheKeyInput, cacheKey, canonicalJson } from "./cache-key.js";
export { type CacheStats, isCacheKey, ResponseCache, ResponseCacheError } from "./response-cache.js";
export type { ResponseStore } from "./response-store.js";
export { type WithCacheOptions, withCache } from "./with-cache.js";
