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
};

export const POSTGRES: Dialect = {
  name: "postgres",
  jsonType: "json",
  identity: (column) => column.primaryKey().generatedByDefaultAsIdentity(),
  bool: (value) => value,
  jsonText: (column, path) => `(${column} #>> ${postgresPath(path)})`,
  jsonTypeOf: (column, path) => `json_typeof(${column} #> ${postgresPath(path)})`,
  anyTrue: (expression) => `bool_or(${expression})`,
};
