import { createContext, useCallback, useContext, useSyncExternalStore } from "react";
import type { SessionSlice, SessionStore, SessionUpdate } from "./session-store.js";

export const SessionContext = createContext<SessionStore | undefined>(undefined);

/** The session store of the app (from `<SessionContext value={store}>`). */
export function useSessionStore(): SessionStore {
  const store = useContext(SessionContext);
  if (store === undefined) throw new Error("useSessionStore needs a <SessionContext> above it");
  return store;
}

/** A slice's value and its setter; the component re-renders when the slice changes. */
export function useSessionSlice<T>(slice: SessionSlice<T>): [T, (update: SessionUpdate<T>) => void] {
  const store = useSessionStore();
  const value = useSyncExternalStore(
    useCallback((listener: () => void) => store.subscribe(slice, listener), [store, slice]),
    () => store.get(slice),
  );
  const setValue = useCallback((update: SessionUpdate<T>) => store.set(slice, update), [store, slice]);
  return [value, setValue];
}
