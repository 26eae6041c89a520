import type { VerificationResult } from "../../results/index.js";
import type { Storage } from "../../storage/index.js";

/**
 * How long the first result of a batch waits for others before the batch is saved. Each save has a fixed cost
 * (a transaction, the run's lock, a check of the questions, a recount of the run's rows): at one result per save
 * a fast job spends most of its storage work, and much of the server's garbage, on that cost.
 */
const GATHER_MS = 100;

/**
 * Saves a job's results into its stored run as they finish, in group commits: results that finish within
 * {@link GATHER_MS} of each other, or while a save is in flight, go together in one save. The run log stays
 * the primary record (a resume re-saves from it), so a crash in the window loses nothing.
 */
export class ResultSaver {
  readonly #storage: Storage;
  readonly #runId: string;
  readonly #gatherMs: number;
  #buffer: VerificationResult[] = [];
  #chain: Promise<void> = Promise.resolve();
  #timer: NodeJS.Timeout | null = null;
  #error: unknown = null;

  constructor(storage: Storage, runId: string, options: { gatherMs?: number } = {}) {
    this.#storage = storage;
    this.#runId = runId;
    this.#gatherMs = options.gatherMs ?? GATHER_MS;
  }

  add(result: VerificationResult): void {
    this.#buffer.push(result);
    if (this.#timer === null) this.#timer = setTimeout(() => this.#queueSave(), this.#gatherMs);
  }

  /** Saves what is buffered now and waits for every queued save. @throws the first save error. */
  async flushed(): Promise<void> {
    this.#queueSave();
    await this.#chain;
    if (this.#error !== null) throw this.#error;
  }

  /** Queues a save of the buffer behind the one in flight (which the buffer keeps filling meanwhile). */
  #queueSave(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    this.#chain = this.#chain.then(async () => {
      const batch = this.#buffer.splice(0);
      if (batch.length === 0 || this.#error !== null) return;
      await this.#storage.saveResults(this.#runId, batch).catch((error: unknown) => {
        this.#error = error;
      });
    });
  }
}
