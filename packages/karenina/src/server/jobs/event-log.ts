import { appendFile, mkdir, readFile } from "node:fs/promises";
import { dirname } from "node:path";
import type { JobEvent } from "./job-events.js";

/**
 * A job's append-only event log (JSONL): what a client reconnecting with `?after=seq` replays, also after a
 * restart. Appends are queued in order; a torn last line (a crash mid-write) is ignored when read.
 */
export class EventLog {
  readonly #path: string;
  #chain: Promise<void>;

  constructor(path: string) {
    this.#path = path;
    this.#chain = mkdir(dirname(path), { recursive: true }).then(() => undefined);
  }

  /** Queues an event; {@link flushed} resolves when it is written. */
  append(event: JobEvent): void {
    const line = `${JSON.stringify(event)}\n`;
    this.#chain = this.#chain.then(() => appendFile(this.#path, line)).catch(() => undefined);
  }

  /** Resolves when every queued event is written. */
  flushed(): Promise<void> {
    return this.#chain;
  }

  /** The events of the log at `path` with `seq` above `after`, in order (none when there is no log). */
  static async read(path: string, after = 0): Promise<JobEvent[]> {
    let text: string;
    try {
      text = await readFile(path, "utf8");
    } catch {
      return [];
    }
    const events: JobEvent[] = [];
    for (const line of text.split("\n")) {
      if (line.trim() === "") continue;
      try {
        const event = JSON.parse(line) as JobEvent;
        if (typeof event.seq === "number" && event.seq > after) events.push(event);
      } catch {
        // A line torn by a crash mid-write: the events before it are whole.
      }
    }
    return events;
  }
}
