import type { FileHandle } from "node:fs/promises";
import { mkdir, open } from "node:fs/promises";
import { dirname } from "node:path";
import { RunLogError, reasonOf } from "./run-log-error.js";

/**
 * Appends finished results to a run's JSONL log (spec 04 §16), one JSON object per line. Each append is a
 * single write of a complete line followed by an `fsync`, so a killed process loses at most the results
 * still in flight and leaves no half line behind. Appends are serialised in call order.
 *
 * If the file already ends in a half line (from a crash of an older writer), opening starts a fresh line,
 * so the half line stays a lone unreadable line that {@link readRunLog} skips.
 */
export class RunLogWriter {
  #queue: Promise<void> = Promise.resolve();
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
    const write = this.#queue.then(async () => {
      try {
        await this.handle.write(line);
        await this.handle.sync();
      } catch (error) {
        throw new RunLogError(this.path, `cannot append to the run log (${reasonOf(error)})`, {
          cause: error,
        });
      }
    });
    this.#queue = write.catch(() => undefined);
    return write;
  }

  /** Waits for pending appends, then closes the file; idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#queue;
    await this.handle.close();
  }
}
