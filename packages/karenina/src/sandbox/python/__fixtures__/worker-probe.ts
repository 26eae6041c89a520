/**
 * Helper of the tests that probe the sandbox's defences inside a worker thread (written for this project): runs
 * a probe module of this folder, TypeScript, through tsx's loader, and returns the report it posts.
 */
import { Worker, type WorkerOptions } from "node:worker_threads";

/** Runs `probe` (a module's URL) in a worker thread and resolves with the first message it posts. */
export async function probeInWorker<Report>(
  probe: URL,
  options: Pick<WorkerOptions, "workerData" | "stderr"> = {},
): Promise<Report> {
  const entry = JSON.stringify(probe.href);
  const worker = new Worker(
    `import("tsx/esm/api").then((tsx) => { tsx.register(); return import(${entry}); });`,
    { ...options, eval: true },
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
