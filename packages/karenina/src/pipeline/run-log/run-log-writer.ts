import type { FileHandle } from "node:fs/promises";
import { mkdir, open } from "node:fs/promises";
import { dirname } from "node:path";
import { RunLogError, reasonOf } from "./run-log-error.js";

/**
 * Appends finished results to a run's JSONL log (spec 04 §16), one JSON object per line. An append resolves
 * once its line is written and `fsync`ed, so a killed process loses at most the results still in flight.
 * Appends made while a write is under way are written together with one `fsync` (group commit), in call order.
 *
 * If the file already ends in a half line (from a crash of an older writer), opening starts a fresh line,
 * so the half line stays a lone unreadable line that {@link readRunLog} skips.
 */
export class RunLogWriter {
  #queue: Promise<void> = Promise.resolve();
  readonly #pending: { line: string; resolve: () => void; reject: (error: unknown) => void }[] = [];
  #closed = false;

  private constructor(
    readonly path: string,
    private readonly handle: FileHandle,
  ) {}

  /**
   * Opens (creating it and its folder if needed) a run log for appending.
   * @throws {RunLogError} when the file cannot be opened.
   */
  static async open(path: string): Promise<RunLogWriter> {
    let handle: FileHandle | undefined;
    try {
      await mkdir(dirname(path), { recursive: true });
      handle = await open(path, "a+");
      const { size } = await handle.stat();
      if (size > 0) {
        const last = Buffer.alloc(1);
        await handle.read(last, 0, 1, size - 1);
        if (last[0] !== 0x0a) {
          await handle.write("\n");
          await handle.sync();
        }
      }
    } catch (error) {
      await handle?.close().catch(() => undefined);
      throw new RunLogError(path, `cannot open the run log (${reasonOf(error)})`, { cause: error });
    }
    return new RunLogWriter(path, handle);
  }

  /**
   * Appends one result as a line and waits until it is on disk.
   * @throws {RunLogError} when the result is not JSON, the writer is closed, or the write fails.
   */
  append(result: unknown): Promise<void> {
    if (this.#closed) return Promise.reject(new RunLogError(this.path, "the run log writer is closed"));
    let line: string;
    try {
      const json = JSON.stringify(result);
      if (json === undefined) throw new TypeError("the result is not a JSON value");
      line = `${json}\n`;
    } catch (error) {
      return Promise.reject(
        new RunLogError(this.path, `cannot serialise the result (${reasonOf(error)})`, { cause: error }),
      );
    }
    return new Promise<void>((resolve, reject) => {
      this.#pending.push({ line, resolve, reject });
      if (this.#pending.length === 1) this.#queue = this.#queue.then(() => this.#flush());
    });
  }

  /**
   * Writes every line waiting (group commit): one write and one `fsync` for all of them, then each of their
   * `append` promises resolves. Lines stay whole and in call order.
   */
  async #flush(): Promise<void> {
    const batch = this.#pending.splice(0);
    if (batch.length === 0) return;
    try {
      await this.handle.write(batch.map((entry) => entry.line).join(""));
      await this.handle.sync();
      for (const entry of batch) entry.resolve();
    } catch (error) {
      const failure = new RunLogError(this.path, `cannot append to the run log (${reasonOf(error)})`, {
        cause: error,
      });
      for (const entry of batch) entry.reject(failure);
    }
  }

  /** Waits for pending appends, then closes the file; idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#queue;
    await this.handle.close();
  }
}
