export { CacheKeyError, type CacheKeyInput, cacheKey, canonicalJson } from "./cache-key.js";
export { type CacheStats, ResponseCache, ResponseCacheError } from "./response-cache.js";
export { type WithCacheOptions, withCache } from "./with-cache.js";
