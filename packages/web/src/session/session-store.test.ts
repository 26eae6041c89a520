import { describe, expect, test } from "vitest";
import {
  defineSlice,
  type SessionBackend,
  SessionStore,
  UNLOAD_KEY_PREFIX,
  type UnloadBackend,
} from "./session-store.js";

/** A backend over a Map, holding what IndexedDB would (the store under test is real). */
function mapBackend(
  initial: Record<string, unknown> = {},
): SessionBackend & { readonly data: Map<string, unknown> } {
  const data = new Map(Object.entries(initial));
  return {
    data,
    get: async (key) => data.get(key),
    set: async (key, value) => {
      data.set(key, value);
    },
  };
}

/** `sessionStorage` over a Map (what the browser keeps for the tab across a reload). */
function mapStorage(): UnloadBackend & { readonly data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (key) => data.get(key) ?? null,
    setItem: (key, value) => void data.set(key, value),
    removeItem: (key) => void data.delete(key),
  };
}

/** A backend whose writes never land, as an IndexedDB write started while the page unloads. */
function droppingWrites(backend: SessionBackend): SessionBackend {
  return { get: backend.get, set: () => new Promise(() => {}) };
}

const counter = defineSlice<{ count: number }>({
  key: "counter",
  version: 2,
  initial: { count: 0 },
  parse: (stored) =>
    typeof stored === "object" && stored !== null && typeof (stored as { count?: unknown }).count === "number"
      ? { count: (stored as { count: number }).count }
      : undefined,
});

describe("the session store", () => {
  test("a slice nobody stored starts at its initial value", async () => {
    const store = new SessionStore(mapBackend());
    await store.restore([counter]);
    expect(store.get(counter)).toEqual({ count: 0 });
  });

  test("restores a stored value of the slice's version", async () => {
    const store = new SessionStore(mapBackend({ counter: { version: 2, value: { count: 7 } } }));
    await store.restore([counter]);
    expect(store.get(counter)).toEqual({ count: 7 });
  });

  test("drops a value of another version, or one that no longer parses, for the initial value", async () => {
    for (const stored of [
      { version: 1, value: { count: 7 } },
      { version: 2, value: { count: "7" } },
      "junk",
      null,
    ]) {
      const store = new SessionStore(mapBackend({ counter: stored }));
      await store.restore([counter]);
      expect(store.get(counter)).toEqual({ count: 0 });
    }
  });

  test("saves a change with its version, once, after the delay (or at flush)", async () => {
    const backend = mapBackend();
    const store = new SessionStore(backend, { saveDelayMs: 60_000 });
    store.set(counter, { count: 1 });
    store.set(counter, (current) => ({ count: current.count + 1 }));
    expect(backend.data.has("counter")).toBe(false);
    await store.flush();
    expect(backend.data.get("counter")).toEqual({ version: 2, value: { count: 2 } });
    const again = new SessionStore(backend);
    await again.restore([counter]);
    expect(again.get(counter)).toEqual({ count: 2 });
  });

  test("tells subscribers of a change, and stops after unsubscribing", async () => {
    const store = new SessionStore(mapBackend(), { saveDelayMs: 0 });
    const seen: number[] = [];
    const unsubscribe = store.subscribe(counter, () => seen.push(store.get(counter).count));
    store.set(counter, { count: 3 });
    unsubscribe();
    store.set(counter, { count: 4 });
    expect(seen).toEqual([3]);
    await store.flush();
  });

  test("a value set before the restore finishes is not overwritten by the stored one", async () => {
    const store = new SessionStore(mapBackend({ counter: { version: 2, value: { count: 7 } } }));
    const restoring = store.restore([counter]);
    store.set(counter, { count: 9 });
    await restoring;
    expect(store.get(counter)).toEqual({ count: 9 });
    await store.flush();
  });

  test("a backend that fails keeps the state in memory and reports each failure, even before a listener", async () => {
    const broken: SessionBackend = {
      get: async () => {
        throw new Error("IndexedDB is unavailable");
      },
      set: async () => {
        throw new Error("quota exceeded");
      },
    };
    const store = new SessionStore(broken);
    await store.restore([counter]);
    store.set(counter, { count: 5 });
    await store.flush();
    expect(store.get(counter)).toEqual({ count: 5 });
    const failures: string[] = [];
    store.onFailure((failure) => failures.push(`${failure.action} ${failure.key}: ${String(failure.error)}`));
    expect(failures).toEqual([
      "restore counter: Error: IndexedDB is unavailable",
      "save counter: Error: quota exceeded",
    ]);
  });

  test("a change still unsaved when the page goes away is kept for the next start, then saved", async () => {
    const backend = mapBackend({ counter: { version: 2, value: { count: 1 } } });
    const tab = mapStorage();
    const leaving = new SessionStore(droppingWrites(backend), { saveDelayMs: 60_000, unloadBackend: tab });
    await leaving.restore([counter]);
    leaving.set(counter, { count: 8 });
    leaving.saveBeforeUnload();
    expect(backend.data.get("counter")).toEqual({ version: 2, value: { count: 1 } });

    const next = new SessionStore(backend, { saveDelayMs: 60_000, unloadBackend: tab });
    await next.restore([counter]);
    expect(next.get(counter)).toEqual({ count: 8 });
    expect(tab.data.size).toBe(0);
    await next.flush();
    expect(backend.data.get("counter")).toEqual({ version: 2, value: { count: 8 } });
  });

  test("nothing is kept at unload when every change is saved; a kept value that does not parse is ignored", async () => {
    const backend = mapBackend();
    const tab = mapStorage();
    const store = new SessionStore(backend, { unloadBackend: tab });
    store.set(counter, { count: 2 });
    await store.flush();
    store.saveBeforeUnload();
    expect(tab.data.size).toBe(0);

    for (const kept of ["{not json", JSON.stringify({ version: 1, value: { count: 9 } }), '{"version":2}']) {
      tab.setItem(`${UNLOAD_KEY_PREFIX}counter`, kept);
      const next = new SessionStore(backend, { unloadBackend: tab });
      await next.restore([counter]);
      expect(next.get(counter)).toEqual({ count: 2 });
    }
  });
});
