export * from "./python/index.js";
