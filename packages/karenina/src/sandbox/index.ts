export * from "./javascript/index.js";
export * from "./python/index.js";
