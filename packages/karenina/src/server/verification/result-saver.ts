import type { VerificationResult } from "../../results/index.js";
import type { Storage } from "../../storage/index.js";

/**
 * Saves a job's results into its stored run as they finish, in group commits: results that finish while a save
 * is in flight go together in the next one. The run log stays the primary record (a resume re-saves from it).
 */
export class ResultSaver {
  readonly #storage: Storage;
  readonly #runId: string;
  #buffer: VerificationResult[] = [];
  #chain: Promise<void> = Promise.resolve();
  #queued = false;
  #error: unknown = null;

  constructor(storage: Storage, runId: string) {
    this.#storage = storage;
    this.#runId = runId;
  }

  add(result: VerificationResult): void {
    this.#buffer.push(result);
    if (this.#queued) return;
    this.#queued = true;
    this.#chain = this.#chain.then(async () => {
      this.#queued = false;
      const batch = this.#buffer.splice(0);
      if (batch.length === 0 || this.#error !== null) return;
      await this.#storage.saveResults(this.#runId, batch).catch((error: unknown) => {
        this.#error = error;
      });
    });
  }

  /** Waits for every queued save. @throws the first save error. */
  async flushed(): Promise<void> {
    await this.#chain;
    if (this.#error !== null) throw this.#error;
  }
}
