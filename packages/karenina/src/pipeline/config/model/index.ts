export * from "./agent-middleware.js";
export * from "./interfaces.js";
export * from "./model-config.js";
export * from "./secret.js";
