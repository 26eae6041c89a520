export { indexedDbBackend, SESSION_DATABASE, SESSION_OBJECT_STORE } from "./idb-backend.js";
export {
  defineSlice,
  type SessionBackend,
  type SessionFailure,
  type SessionSlice,
  SessionStore,
  type SessionStoreOptions,
  type SessionUpdate,
  UNLOAD_KEY_PREFIX,
  type UnloadBackend,
} from "./session-store.js";
export { SessionContext, useSessionSlice, useSessionStore } from "./use-session-slice.js";
