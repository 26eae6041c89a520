export * from "./spreadsheet/index.js";
export * from "./template-generation/index.js";
