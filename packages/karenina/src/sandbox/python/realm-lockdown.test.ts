import { expect, test } from "vitest";
import { probeInWorker } from "./__fixtures__/worker-probe.js";

interface RealmReport {
  /** Ways out of the realm, and whether each was blocked. */
  readonly blocked: Record<string, boolean>;
  /** Hooks on intrinsics and globals, and whether each was blocked. */
  readonly hooksBlocked: Record<string, boolean>;
  /** Ordinary code after the lockdown, and whether it still works. */
  readonly works: Record<string, boolean>;
}

/** Runs the probe worker and returns its report. */
function probeLockedRealm(): Promise<RealmReport> {
  return probeInWorker(new URL("./__fixtures__/realm-probe.ts", import.meta.url));
}

const failures = (outcomes: Record<string, boolean>): string[] =>
  Object.entries(outcomes)
    .filter(([, ok]) => !ok)
    .map(([name]) => name);

test("a JS object reached after the realm lockdown leads to no code generation, process, require or network", async () => {
  const { blocked } = await probeLockedRealm();
  expect(failures(blocked)).toEqual([]);
  expect(Object.keys(blocked)).toHaveLength(11);
});

test("after the realm lockdown no intrinsic, prototype or global can be hooked, and ordinary code still works", async () => {
  const { hooksBlocked, works } = await probeLockedRealm();
  expect(failures(hooksBlocked)).toEqual([]);
  expect(Object.keys(hooksBlocked).length).toBeGreaterThanOrEqual(30);
  expect(failures(works)).toEqual([]);
  expect(Object.keys(works)).toHaveLength(7);
});
