import type { ColumnDefinitionBuilder } from "kysely";
import type { DbBool } from "./schema.js";

/**
 * Everything in the schema and queries that differs between SQLite and PostgreSQL. The rest of the folder
 * writes one query for both. (Opening a connection differs too: see connect.ts.)
 */
export interface Dialect {
  readonly name: "sqlite" | "postgres";
  /**
   * Column type of JSON documents. PostgreSQL's `json` keeps the text as written (`jsonb` would reorder keys,
   * and a stored result must come back with its keys in the schema's order); SQLite keeps JSON as text.
   */
  readonly jsonType: "json" | "text";
  /** Makes an integer column an auto-incremented primary key. */
  identity(column: ColumnDefinitionBuilder): ColumnDefinitionBuilder;
  /** A boolean as the driver binds it (better-sqlite3 takes no booleans). */
  bool(value: boolean): DbBool;
  /** SQL: the text at a JSON path of a column (`path` = object keys from the root). */
  jsonText(column: string, path: readonly string[]): string;
  /** SQL: the JSON type (`object`, `null`, ...) of the value at a JSON path of a column. */
  jsonTypeOf(column: string, path: readonly string[]): string;
  /** SQL: an aggregate that is true when any of the booleans is. */
  anyTrue(expression: string): string;
  /**
   * A FROM item (after `CROSS JOIN`): one row per entry of the JSON object at a path, with columns `key` and
   * (for {@link entryText} and {@link entryPythonType}) its value; no row when the value is not an object.
   */
  jsonEntries(column: string, path: readonly string[], alias: string): string;
  /** A FROM item: one row per element of the JSON array at a path; no row when the value is not an array. */
  jsonElements(column: string, path: readonly string[], alias: string): string;
  /** SQL: the text of an entry's (or element's) value: a string unquoted, null as NULL, anything else as its JSON text. */
  entryText(column: string, alias: string): string;
  /** SQL: the Python type name (`bool`, `int`, `float`, `str`, `list`, `dict`, `None`) of an entry's value. */
  entryPythonType(alias: string): string;
  /** SQL: the text (as {@link entryText}) of the member named by `key` (an SQL expression) of the object at a path. */
  jsonMemberText(column: string, path: readonly string[], key: string): string;
  /** SQL: a JSON boolean at a path as the integer 1 or 0 (NULL when absent or null). */
  jsonFlag(column: string, path: readonly string[]): string;
  /** SQL: a JSON number at a path as an integer, truncated (NULL when absent or null). */
  jsonInteger(column: string, path: readonly string[]): string;
  /** SQL: the JSON text of the value at a path (NULL when absent). */
  jsonRaw(column: string, path: readonly string[]): string;
  /** SQL: the length of the JSON array at a path; 0 when the value is not an array. */
  jsonArrayLength(column: string, path: readonly string[]): string;
}

const sqlString = (text: string) => `'${text.replaceAll("'", "''")}'`;
const sqlitePath = (path: readonly string[]) => sqlString(`$${path.map((key) => `.${key}`).join("")}`);
const postgresPath = (path: readonly string[]) => sqlString(`{${path.join(",")}}`);

export const SQLITE: Dialect = {
  name: "sqlite",
  jsonType: "text",
  identity: (column) => column.primaryKey().autoIncrement(),
  bool: (value) => (value ? 1 : 0),
  jsonText: (column, path) => `json_extract(${column}, ${sqlitePath(path)})`,
  jsonTypeOf: (column, path) => `json_type(${column}, ${sqlitePath(path)})`,
  anyTrue: (expression) => `max(${expression})`,
  jsonEntries: (column, path, alias) =>
    `json_each(CASE WHEN json_type(${column}, ${sqlitePath(path)}) = 'object' THEN ${column} END, ${sqlitePath(path)}) AS ${alias}`,
  jsonElements: (column, path, alias) =>
    `json_each(CASE WHEN json_type(${column}, ${sqlitePath(path)}) = 'array' THEN ${column} END, ${sqlitePath(path)}) AS ${alias}`,
  entryText: (column, alias) =>
    `(CASE ${alias}.type WHEN 'text' THEN ${alias}.value WHEN 'null' THEN NULL ELSE (${column} -> ${alias}.fullkey) END)`,
  entryPythonType: (alias) =>
    `(CASE ${alias}.type WHEN 'true' THEN 'bool' WHEN 'false' THEN 'bool' WHEN 'integer' THEN 'int' ` +
    `WHEN 'real' THEN 'float' WHEN 'text' THEN 'str' WHEN 'array' THEN 'list' WHEN 'object' THEN 'dict' ` +
    `ELSE 'None' END)`,
  jsonMemberText: (column, path, key) => {
    const member = `(${column} -> (${sqlitePath(path)} || '.' || json_quote(${key})))`;
    return `(CASE json_type(${member}) WHEN 'text' THEN ${member} ->> '$' WHEN 'null' THEN NULL ELSE ${member} END)`;
  },
  jsonFlag: (column, path) => `json_extract(${column}, ${sqlitePath(path)})`,
  jsonInteger: (column, path) => `CAST(json_extract(${column}, ${sqlitePath(path)}) AS INTEGER)`,
  jsonRaw: (column, path) => `(${column} -> ${sqlitePath(path)})`,
  jsonArrayLength: (column, path) =>
    `(CASE WHEN json_type(${column}, ${sqlitePath(path)}) = 'array' THEN json_array_length(${column}, ${sqlitePath(path)}) ELSE 0 END)`,
};

/** PostgreSQL: the value at a path when its JSON type is `type`, else SQL NULL (so set functions yield no row). */
const postgresIfType = (column: string, path: readonly string[], type: string) =>
  `CASE WHEN json_typeof(${column} #> ${postgresPath(path)}) = '${type}' THEN ${column} #> ${postgresPath(path)} END`;

export const POSTGRES: Dialect = {
  name: "postgres",
  jsonType: "json",
  identity: (column) => column.primaryKey().generatedByDefaultAsIdentity(),
  bool: (value) => value,
  jsonText: (column, path) => `(${column} #>> ${postgresPath(path)})`,
  jsonTypeOf: (column, path) => `json_typeof(${column} #> ${postgresPath(path)})`,
  anyTrue: (expression) => `bool_or(${expression})`,
  jsonEntries: (column, path, alias) => `json_each(${postgresIfType(column, path, "object")}) AS ${alias}`,
  jsonElements: (column, path, alias) =>
    `json_array_elements(${postgresIfType(column, path, "array")}) AS ${alias}(value)`,
  entryText: (_column, alias) => `(${alias}.value #>> '{}')`,
  // A number is an int when its JSON text is an integer, as Python reads it (json_typeof says only "number").
  entryPythonType: (alias) =>
    `(CASE json_typeof(${alias}.value) WHEN 'boolean' THEN 'bool' WHEN 'number' THEN ` +
    `(CASE WHEN (${alias}.value #>> '{}') ~ '^-?[0-9]+$' THEN 'int' ELSE 'float' END) ` +
    `WHEN 'string' THEN 'str' WHEN 'array' THEN 'list' WHEN 'object' THEN 'dict' ELSE 'None' END)`,
  jsonMemberText: (column, path, key) => `((${column} #> ${postgresPath(path)} -> ${key}) #>> '{}')`,
  jsonFlag: (column, path) => `((${column} #>> ${postgresPath(path)})::boolean)::integer`,
  jsonInteger: (column, path) => `trunc((${column} #>> ${postgresPath(path)})::numeric)::integer`,
  jsonRaw: (column, path) => `(${column} #> ${postgresPath(path)})::text`,
  jsonArrayLength: (column, path) =>
    `coalesce(json_array_length(${postgresIfType(column, path, "array")}), 0)`,
};
