import type { PythonSandbox } from "../../sandbox/index.js";

/** How long a spare may wait unused before it is closed (its process holds memory). */
const DEFAULT_IDLE_MS = 5 * 60_000;

/**
 * Started Python sandboxes kept ready, one at a time, for requests that each need a sandbox of their own
 * (the template builder's Quick Check and sample test): a request takes a sandbox that was started in advance
 * and has never run anything, closes it when done, and a replacement starts in the background. The isolation is
 * that of a fresh sandbox per request; only the start-up (a new process loading Pyodide, seconds) leaves the
 * request's path. The first request after a quiet spell starts its own; a spare unused for `idleMs` is closed.
 */
export class SpareSandboxes {
  readonly #create: () => PythonSandbox;
  readonly #idleMs: number;
  #spare: Promise<PythonSandbox | null> | null = null;
  #idleTimer: NodeJS.Timeout | null = null;
  #closed = false;

  constructor(create: () => PythonSandbox, options: { idleMs?: number } = {}) {
    this.#create = create;
    this.#idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
  }

  /** Runs `work` with a sandbox no one else has used, closed afterwards; the next spare starts meanwhile. */
  async use<T>(work: (sandbox: PythonSandbox) => Promise<T>): Promise<T> {
    const sandbox = await this.#take();
    try {
      return await work(sandbox);
    } finally {
      await sandbox.close();
    }
  }

  /** Closes the spare, if any; later requests start their own sandbox and keep none. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#clearIdle();
    const spare = this.#spare;
    this.#spare = null;
    await (await spare)?.close();
  }

  async #take(): Promise<PythonSandbox> {
    // The replacement is in place before any await, so requests arriving together never start two spares.
    const spare = this.#spare;
    this.#spare = this.#closed ? null : this.#started();
    if (!this.#closed) this.#armIdle();
    return (spare === null ? null : await spare) ?? this.#create();
  }

  /** A sandbox started in the background; null (never a rejection) when it failed to start. */
  #started(): Promise<PythonSandbox | null> {
    const sandbox = this.#create();
    return sandbox.start().then(
      () => sandbox,
      async () => {
        await sandbox.close().catch(() => undefined);
        return null;
      },
    );
  }

  #armIdle(): void {
    this.#clearIdle();
    this.#idleTimer = setTimeout(() => {
      const spare = this.#spare;
      this.#spare = null;
      void spare?.then((sandbox) => sandbox?.close());
    }, this.#idleMs);
    this.#idleTimer.unref();
  }

  #clearIdle(): void {
    if (this.#idleTimer !== null) clearTimeout(this.#idleTimer);
    this.#idleTimer = null;
  }
}
