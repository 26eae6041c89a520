import { describe, expect, test } from "vitest";
import { defineSlice, type SessionBackend, SessionStore } from "./session-store.js";

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
});
