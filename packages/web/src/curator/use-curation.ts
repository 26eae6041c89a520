import { useCallback, useEffect, useMemo, useRef, useSyncExternalStore } from "react";
import type { CurationSaved } from "../library-types/index.js";
import { useAnnounce } from "../status/index.js";
import type { WorkingBenchmark } from "../working-benchmark/index.js";
import { curationTransport } from "./curation-api.js";
import { CurationController, type LoadState } from "./curation-controller.js";
import { draftsKey } from "./curator-session.js";

/** Templates as first loaded in this page, per benchmark (they outlive tab switches, not reloads). */
const originalsOfPage = new Map<string, Record<string, string>>();

function originalsFor(benchmark: WorkingBenchmark): Record<string, string> {
  const key = draftsKey(benchmark);
  let originals = originalsOfPage.get(key);
  if (originals === undefined) {
    originals = {};
    originalsOfPage.set(key, originals);
  }
  return originals;
}

/** The last save of a screen that went away, per benchmark: the next load waits for it (no stale read). */
const closing = new Map<string, Promise<void>>();

/** "12:03": the local time of a save. */
export function clockTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? iso
    : date.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });
}

const NONE = (): LoadState | null => null;
const noSubscription = () => () => undefined;

/**
 * The working benchmark's curation: loaded when the benchmark changes, autosaved while the screen shows it,
 * and flushed when the screen goes (a tab switch must not drop a debounced edit).
 */
export function useCuration(benchmark: WorkingBenchmark | null): {
  readonly controller: CurationController | null;
  readonly state: LoadState | null;
} {
  const announce = useAnnounce();
  const announceRef = useRef(announce);
  announceRef.current = announce;
  const db = benchmark?.db ?? null;
  const name = benchmark?.name;
  const controller = useMemo(() => {
    if (name === undefined) return null;
    const target = { db, name };
    return new CurationController(curationTransport(target), {
      originals: originalsFor(target),
      onSaved: (saved: CurationSaved) => announceRef.current(`Saved ${clockTime(saved.last_modified)}`),
      onSaveFailed: (message) => announceRef.current(`Saving failed: ${message}`),
    });
  }, [db, name]);

  useEffect(() => {
    if (controller === null || name === undefined) return;
    const key = draftsKey({ db, name });
    void (closing.get(key) ?? Promise.resolve()).then(() => controller.load());
    return () => {
      closing.set(key, controller.close());
    };
  }, [controller, db, name]);

  const subscribe = useCallback(
    (listener: () => void) => (controller === null ? noSubscription() : controller.subscribe(listener)),
    [controller],
  );
  const state = useSyncExternalStore(subscribe, controller === null ? NONE : () => controller.state);
  return { controller, state };
}
