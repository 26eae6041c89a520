export * from "./answer-builder/index.js";
export * from "./curation-workbook/index.js";
export * from "./questions-file/index.js";
export * from "./spreadsheet/index.js";
export * from "./template-builder/index.js";
export * from "./template-generation/index.js";
