import type { VerificationResult } from "../results/index.js";
import type { Storage } from "../storage/index.js";

interface Pending {
  runId: string;
  result: VerificationResult;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** How often a run's counts are recounted while its results are saved without recounting. */
const RECOUNT_EVERY_MS = 2_000;

/**
 * A worker's result saves, committed in groups: a result is saved at once when no save is in flight, else
 * with the others that finished meanwhile, in one transaction per run. Each `save` resolves once its result
 * is committed, so a group is ended only after its results are stored. Saves skip the per-save recount and
 * question check (the planner stored the benchmark); the run's counts are recounted at most every 2 s, and
 * when the run finishes.
 */
export class ResultBatcher {
  readonly #storage: Storage;
  #pending: Pending[] = [];
  #flushing = false;
  readonly #recountedAt = new Map<string, number>();

  constructor(storage: Storage) {
    this.#storage = storage;
  }

  save(runId: string, result: VerificationResult): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#pending.push({ runId, result, resolve, reject });
      if (!this.#flushing) void this.#flush();
    });
  }

  async #flush(): Promise<void> {
    this.#flushing = true;
    try {
      while (this.#pending.length > 0) {
        const batch = this.#pending.splice(0);
        const byRun = new Map<string, Pending[]>();
        for (const item of batch) byRun.set(item.runId, [...(byRun.get(item.runId) ?? []), item]);
        for (const [runId, items] of byRun) await this.#saveRun(runId, items);
      }
    } finally {
      this.#flushing = false;
    }
  }

  async #saveRun(runId: string, items: readonly Pending[]): Promise<void> {
    try {
      await this.#storage.saveResults(
        runId,
        items.map((item) => item.result),
        { recount: false, checkQuestions: false },
      );
      for (const item of items) item.resolve();
    } catch (error) {
      for (const item of items) item.reject(error);
      return;
    }
    const now = Date.now();
    if (now - (this.#recountedAt.get(runId) ?? 0) < RECOUNT_EVERY_MS) return;
    this.#recountedAt.set(runId, now);
    // The counts are a convenience for run lists; the results are stored whatever happens to them.
    await this.#storage.recountRun(runId).catch(() => undefined);
  }
}
