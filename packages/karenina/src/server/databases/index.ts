export {
  type ConnectionInfo,
  connectionsOf,
  DatabaseConnections,
  DEFAULT_CONNECTION,
} from "./connections.js";
export {
  containedDatabaseFile,
  type DatabaseFile,
  databaseDirectory,
  listDatabaseFiles,
  SQLITE_FILE_NAME,
  withDbExtension,
} from "./db-directory.js";
export { ConnectionNameSchema, DbQuerySchema } from "./db-query.js";
export { asApiError, libraryCall } from "./storage-errors.js";
