export * from "./agent/index.js";
export * from "./containers/index.js";
export * from "./deep-agent/index.js";
export * from "./mcp/index.js";
export * from "./replay/index.js";
export * from "./tools/index.js";
export * from "./workspace/index.js";
