export { SandboxError, SandboxMemoryError, SandboxTimeoutError } from "./errors.js";
export * from "./javascript/index.js";
export * from "./python/index.js";
