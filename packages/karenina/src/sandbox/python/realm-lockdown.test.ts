import { Worker } from "node:worker_threads";
import { expect, test } from "vitest";

/** Runs the probe worker (TypeScript, through tsx's loader) and returns its report. */
async function probeLockedRealm(): Promise<{ blocked: Record<string, boolean>; stillWorks: boolean }> {
  const entry = JSON.stringify(new URL("./__fixtures__/realm-probe.ts", import.meta.url).href);
  const worker = new Worker(
    `import("tsx/esm/api").then((tsx) => { tsx.register(); return import(${entry}); });`,
    {
      eval: true,
    },
  );
  try {
    return await new Promise((resolve, reject) => {
      worker.once("message", resolve);
      worker.once("error", reject);
    });
  } finally {
    await worker.terminate();
  }
}

test("a JS object reached after the realm lockdown leads to no code generation, process, require or network", async () => {
  const { blocked, stillWorks } = await probeLockedRealm();
  expect(Object.entries(blocked).filter(([, wasBlocked]) => !wasBlocked)).toEqual([]);
  expect(Object.keys(blocked)).toHaveLength(11);
  expect(stillWorks).toBe(true);
});
