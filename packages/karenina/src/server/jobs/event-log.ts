import { once } from "node:events";
import { createReadStream } from "node:fs";
import { appendFile, mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import { createInterface } from "node:readline";
import type { JobEvent } from "./job-events.js";

/**
 * A job's append-only event log (JSONL): what a client reconnecting with `?after=seq` replays, also after a
 * restart. Appends are queued in order; a torn last line (a crash mid-write) is ignored when read.
 */
export class EventLog {
  readonly path: string;
  #chain: Promise<void>;

  constructor(path: string) {
    this.path = path;
    this.#chain = mkdir(dirname(path), { recursive: true }).then(() => undefined);
  }

  /** Queues an event; {@link flushed} resolves when it is written. */
  append(event: JobEvent): void {
    const line = `${JSON.stringify(event)}\n`;
    this.#chain = this.#chain.then(() => appendFile(this.path, line)).catch(() => undefined);
  }

  /** Resolves when every queued event is written. */
  flushed(): Promise<void> {
    return this.#chain;
  }

  /**
   * Calls `onEvent` with each event of the log at `path` whose `seq` is above `after`, in order, reading the
   * file a line at a time (a long job's log is never held whole in memory). No log: no events.
   */
  static async replay(path: string, after: number, onEvent: (event: JobEvent) => void): Promise<void> {
    const input = createReadStream(path, { encoding: "utf8" });
    try {
      await once(input, "open");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
      throw error;
    }
    const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
    try {
      for await (const line of lines) {
        const event = parseLine(line);
        if (event !== null && event.seq > after) onEvent(event);
      }
    } finally {
      lines.close();
      input.destroy();
    }
  }

  /** The events of the log at `path` with `seq` above `after`, in order (none when there is no log). */
  static async read(path: string, after = 0): Promise<JobEvent[]> {
    const events: JobEvent[] = [];
    await EventLog.replay(path, after, (event) => events.push(event));
    return events;
  }

  /** The `seq` of the last whole event of the log at `path` (0 when it has none). */
  static async lastSeq(path: string): Promise<number> {
    let last = 0;
    await EventLog.replay(path, 0, (event) => {
      last = event.seq;
    });
    return last;
  }
}

/** One line's event, or null for a blank line or one torn by a crash mid-write (the events before it are whole). */
function parseLine(line: string): JobEvent | null {
  if (line.trim() === "") return null;
  try {
    const event = JSON.parse(line) as JobEvent;
    return typeof event.seq === "number" ? event : null;
  } catch {
    return null;
  }
}
