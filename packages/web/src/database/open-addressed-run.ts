import { resultsSourceSlice, sourceOfHash } from "../results-source/index.js";
import type { SessionStore } from "../session/index.js";
import { connectedDbSlice } from "./connected-db.js";

/**
 * Opens the run a page address names (`#/benchmark?run=…[&db=…]`, the address `karenina view` prints): it becomes
 * the results source, and its database becomes the connected one, so the bar, the stored runs and the results
 * all show the same database. Returns whether the address named a run.
 */
export function openAddressedRun(store: SessionStore, hash: string): boolean {
  const source = sourceOfHash(hash);
  if (source === undefined) return false;
  store.set(resultsSourceSlice, { source });
  store.set(connectedDbSlice, { db: source.db });
  return true;
}
