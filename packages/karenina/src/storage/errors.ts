import { KareninaError } from "../errors/index.js";

/**
 * Base of the storage errors. `database` names the database as {@link describeStorageUrl} shows it (a
 * PostgreSQL password masked), and every message starts with it.
 */
export class StorageError extends KareninaError {
  override readonly name: string = "StorageError";

  constructor(
    readonly database: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`${database}: ${message}`, options);
  }
}

/**
 * The database cannot be opened: the URL is not one we read, the file is not a SQLite database, its
 * directory is missing, or the server refuses the connection. The message says which, with the cause.
 */
export class StorageOpenError extends StorageError {
  override readonly name: string = "StorageOpenError";
}

/**
 * The database's schema is not one this version can use: written by a newer karenina (the message gives both
 * versions and what to do), or holding tables karenina did not create. Nothing was changed.
 */
export class StorageSchemaError extends StorageError {
  override readonly name: string = "StorageSchemaError";
}

/** A benchmark or run named in a call is not in the database. */
export class StorageNotFoundError extends StorageError {
  override readonly name: string = "StorageNotFoundError";

  constructor(
    database: string,
    readonly kind: "benchmark" | "run" | "job",
    readonly key: string,
    hint = "",
  ) {
    super(database, `no ${kind} ${JSON.stringify(key)} in the database${hint ? ` (${hint})` : ""}`);
  }
}

/**
 * A call was given data the database cannot take: results for questions it does not hold, an unknown run
 * status, an import file that is not a results export. Nothing was written.
 */
export class StorageInputError extends StorageError {
  override readonly name: string = "StorageInputError";
}

/** A query failed for a reason of the database itself (connection lost, disk full, ...); `cause` has it. */
export class StorageQueryError extends StorageError {
  override readonly name: string = "StorageQueryError";

  constructor(
    database: string,
    readonly operation: string,
    cause: unknown,
  ) {
    super(database, `${operation} failed: ${causeText(cause)}`, { cause });
  }
}

/** The message of an error thrown by a driver, for our messages. */
export function causeText(cause: unknown): string {
  if (cause instanceof AggregateError && cause.errors.length > 0) return causeText(cause.errors[0]);
  if (cause instanceof Error) {
    const code = (cause as NodeJS.ErrnoException).code;
    const message = cause.message || String(code ?? cause.name);
    return code && !message.includes(code) ? `${message} (${code})` : message;
  }
  return String(cause);
}
