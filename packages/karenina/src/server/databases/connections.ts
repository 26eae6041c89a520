import { describeStorageUrl, openStorage, type Storage } from "../../storage/index.js";
import { ApiError, type ServerDeps } from "../core/index.js";

/** The name of the server's own database (`karenina serve --db`), always connected. */
export const DEFAULT_CONNECTION = "default";

/** A named connection as clients see it: never its credentials. */
export interface ConnectionInfo {
  readonly name: string;
  /** The database as messages name it (a PostgreSQL password masked). */
  readonly database: string;
  readonly dialect: "sqlite" | "postgres";
  /** The SQLite file (real path), or null for PostgreSQL. */
  readonly file: string | null;
}

interface Connection extends ConnectionInfo {
  readonly storage: Storage;
}

/**
 * The databases a server is connected to, by name (spec 07 §1.7 fix: credentials stay on the server; clients
 * name a connection with `?db=`). `default` is the server's own database and is neither replaced nor closed here.
 */
export class DatabaseConnections {
  readonly #connections = new Map<string, Connection>();

  constructor(deps: ServerDeps) {
    const storage = deps.storage;
    this.#connections.set(DEFAULT_CONNECTION, {
      name: DEFAULT_CONNECTION,
      database: describeStorageUrl(deps.storageUrl),
      dialect: storage.dialect,
      file: null,
      storage,
    });
  }

  /** The storage of a connection. @throws {ApiError} 404 naming the connections there are. */
  storage(name: string = DEFAULT_CONNECTION): Storage {
    const connection = this.#connections.get(name);
    if (connection) return connection.storage;
    const known = [...this.#connections.keys()].map((key) => JSON.stringify(key)).join(", ");
    throw new ApiError(
      404,
      "not_found",
      `database connection ${JSON.stringify(name)} not found (connected: ${known})`,
    );
  }

  /** Every connection, by name. */
  list(): ConnectionInfo[] {
    return [...this.#connections.values()]
      .map(({ storage: _storage, ...info }) => info)
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  /**
   * Opens a database under a new name. `file` is the contained SQLite path (see `containedDatabaseFile`) or null
   * for a PostgreSQL `url`.
   * @throws {ApiError} 409 when the name is taken; storage errors as they come (the caller maps them).
   */
  async connect(name: string, url: string, file: string | null, create: boolean): Promise<ConnectionInfo> {
    if (this.#connections.has(name)) {
      throw ApiError.conflict(`database connection ${JSON.stringify(name)} exists; disconnect it first`);
    }
    const storage = await openStorage(url, { create });
    if (this.#connections.has(name)) {
      await storage.close();
      throw ApiError.conflict(`database connection ${JSON.stringify(name)} exists; disconnect it first`);
    }
    const connection = { name, database: storage.database, dialect: storage.dialect, file, storage };
    this.#connections.set(name, connection);
    const { storage: _storage, ...info } = connection;
    return info;
  }

  /** Closes a named connection. @throws {ApiError} 404 unknown, 400 for `default`. */
  async disconnect(name: string): Promise<void> {
    if (name === DEFAULT_CONNECTION) {
      throw ApiError.badRequest("the default database (karenina serve --db) cannot be disconnected");
    }
    const connection = this.#connections.get(name);
    if (!connection) throw ApiError.notFound(`database connection ${JSON.stringify(name)}`);
    this.#connections.delete(name);
    await connection.storage.close();
  }

  /** Closes every connection open on SQLite file `file` (before deleting it); names them. */
  async disconnectFile(file: string): Promise<string[]> {
    const names = [...this.#connections.values()]
      .filter((connection) => connection.file === file && connection.name !== DEFAULT_CONNECTION)
      .map((connection) => connection.name);
    for (const name of names) await this.disconnect(name);
    return names;
  }

  /** Closes every connection but `default` (which the server closes itself). */
  async closeAll(): Promise<void> {
    for (const name of [...this.#connections.keys()]) {
      if (name !== DEFAULT_CONNECTION) await this.disconnect(name);
    }
  }
}

const registries = new WeakMap<ServerDeps, DatabaseConnections>();

/** The connections of a server (one registry per `ServerDeps`, shared by every route group). */
export function connectionsOf(deps: ServerDeps): DatabaseConnections {
  let registry = registries.get(deps);
  if (!registry) {
    registry = new DatabaseConnections(deps);
    registries.set(deps, registry);
  }
  return registry;
}
