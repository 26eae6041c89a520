export * from "./benchmark/index.js";
export * from "./checkpoint/index.js";
export * from "./errors/index.js";
export * from "./model/index.js";
export * from "./python-regex/index.js";
export * from "./rubrics/index.js";
export * from "./templates/index.js";
