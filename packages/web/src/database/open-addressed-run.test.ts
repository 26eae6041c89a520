import { describe, expect, test } from "vitest";
import { resultsSourceSlice } from "../results-source/index.js";
import { type SessionBackend, SessionStore } from "../session/index.js";
import { connectedDbSlice } from "./connected-db.js";
import { openAddressedRun } from "./open-addressed-run.js";

const memory = (): SessionBackend => {
  const values = new Map<string, unknown>();
  return { get: async (key) => values.get(key), set: async (key, value) => void values.set(key, value) };
};

describe("openAddressedRun", () => {
  test("a hash with db= sets both the results source and the connected database", () => {
    const store = new SessionStore(memory());
    expect(openAddressedRun(store, "#/benchmark?db=archive&run=r1&label=Run%20nightly")).toBe(true);
    expect(store.get(resultsSourceSlice).source).toEqual({
      db: "archive",
      runIds: ["r1"],
      label: "Run nightly",
    });
    expect(store.get(connectedDbSlice)).toEqual({ db: "archive" });
  });

  test("a hash without db= connects the server's own database, replacing an earlier connection", () => {
    const store = new SessionStore(memory());
    store.set(connectedDbSlice, { db: "archive" });
    openAddressedRun(store, "#/benchmark?run=r2");
    expect(store.get(connectedDbSlice)).toEqual({ db: null });
    expect(store.get(resultsSourceSlice).source?.runIds).toEqual(["r2"]);
  });

  test("a hash naming no run changes nothing", () => {
    const store = new SessionStore(memory());
    store.set(connectedDbSlice, { db: "archive" });
    expect(openAddressedRun(store, "#/benchmark")).toBe(false);
    expect(store.get(connectedDbSlice)).toEqual({ db: "archive" });
    expect(store.get(resultsSourceSlice).source).toBeNull();
  });
});
