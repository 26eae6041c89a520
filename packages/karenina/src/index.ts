export * from "./agentic/index.js";
export * from "./authoring/index.js";
export * from "./benchmark/index.js";
export * from "./checkpoint/index.js";
export * from "./distributed/index.js";
export * from "./errors/index.js";
export * from "./llm/index.js";
export * from "./model/index.js";
export * from "./pipeline/index.js";
export * from "./python-regex/index.js";
export * from "./result-table/index.js";
export * from "./results/index.js";
export * from "./rubrics/index.js";
export * from "./sandbox/index.js";
export * from "./scenario/index.js";
// Types only: the server's request and response shapes, for the web app (no server code is exported here).
export type * from "./server/api-types/index.js";
export * from "./storage/index.js";
export * from "./templates/index.js";
