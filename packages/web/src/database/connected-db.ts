import { defineSlice } from "../session/index.js";

/** The server's own database's connection name (`?db=` omitted means it). */
export const DEFAULT_CONNECTION = "default";

/**
 * The database the page browses: a named connection of the server, or null for the server's own. Credentials
 * never reach the page: a connection is a name the server holds the URL of.
 */
export interface ConnectedDbState {
  readonly db: string | null;
}

export const connectedDbSlice = defineSlice<ConnectedDbState>({
  key: "connected-db",
  version: 1,
  initial: { db: null },
  parse: (stored) => {
    if (typeof stored !== "object" || stored === null) return undefined;
    const { db } = stored as Record<string, unknown>;
    return db === null || typeof db === "string" ? { db } : undefined;
  },
});

/** The connection name for a `?db=` query (undefined: the server's own). */
export function dbQuery(db: string | null): string | undefined {
  return db === null || db === DEFAULT_CONNECTION ? undefined : db;
}

/** How the page names a database. */
export function dbLabel(db: string | null): string {
  return db === null || db === DEFAULT_CONNECTION ? "the server's database" : db;
}
