import { useCallback, useSyncExternalStore } from "react";
import {
  loadTraceHighlighting,
  saveTraceHighlighting,
  TRACE_HIGHLIGHTING_KEY,
  type TraceHighlighting,
} from "./highlight-patterns.js";

// One copy of the settings per page, shared by every viewer and the settings tab; another browser tab's change
// arrives through the `storage` event.
let current: TraceHighlighting | undefined;
const listeners = new Set<() => void>();

function storage(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
}

function snapshot(): TraceHighlighting {
  current ??= loadTraceHighlighting(storage());
  return current;
}

function notify() {
  for (const listener of listeners) listener();
}

function onStorage(event: StorageEvent) {
  if (event.key !== TRACE_HIGHLIGHTING_KEY && event.key !== null) return;
  current = loadTraceHighlighting(storage());
  notify();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  if (listeners.size === 1) globalThis.addEventListener?.("storage", onStorage);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) globalThis.removeEventListener?.("storage", onStorage);
  };
}

/** Replaces the settings for every viewer on the page and stores them. */
export function setTraceHighlighting(settings: TraceHighlighting): void {
  current = settings;
  saveTraceHighlighting(storage(), settings);
  notify();
}

/** Forgets the page's copy so the next read comes from storage (tests). */
export function reloadTraceHighlighting(): void {
  current = undefined;
  notify();
}

/** The trace-highlighting settings and a setter that stores them. */
export function useTraceHighlighting(): [TraceHighlighting, (settings: TraceHighlighting) => void] {
  const settings = useSyncExternalStore(subscribe, snapshot, snapshot);
  const set = useCallback((next: TraceHighlighting) => setTraceHighlighting(next), []);
  return [settings, set];
}
