export { SchemaLimitError, type SchemaPath, schemaPathText } from "./errors.js";
export { assertSchemaWithinLimits, MAX_SCHEMA_DEPTH, MAX_SCHEMA_NODES } from "./schema-limits.js";
