import { createStore, get, set } from "idb-keyval";
import type { SessionBackend } from "./session-store.js";

/** The IndexedDB database and object store holding the session (one record per slice). */
export const SESSION_DATABASE = "karenina-session";
export const SESSION_OBJECT_STORE = "slices";

/** The session backend of the app: IndexedDB through idb-keyval (values stored by structured clone). */
export function indexedDbBackend(): SessionBackend {
  const store = createStore(SESSION_DATABASE, SESSION_OBJECT_STORE);
  return {
    get: (key) => get(key, store),
    set: (key, value) => set(key, value, store),
  };
}
