import { withTokenQuery } from "../api/index.js";
import type { JobStreamEvent } from "../library-types/index.js";

/** The events that end a job's stream (docs/server.md, "Progress events"). */
const END_EVENTS = new Set(["job_completed", "job_failed", "job_cancelled"]);

/** Every event type of a job's stream, for EventSource listeners (named events get no `onmessage`). */
const EVENT_TYPES = [
  "snapshot",
  "job_started",
  "task_started",
  "task_completed",
  "task_failed",
  ...END_EVENTS,
];

/** Whether `event` is the last one of its job's stream. */
export function isJobEndEvent(event: JobStreamEvent): boolean {
  return END_EVENTS.has(event.type);
}

export interface EventStreamHandlers {
  onEvent(event: JobStreamEvent): void;
  /** An end event arrived (after its `onEvent`); the stream is closed. */
  onEnd(): void;
  /** The server closed the stream for good before an end event (not called after `onEnd` or a stop). */
  onClosed(): void;
}

/**
 * Follows a job's Server-Sent Events at `path` (e.g. `/api/v2/verifications/{id}/events?after=0`; the token is
 * added here). Returns the function that stops; no handler runs after it.
 */
export function followEventStream(path: string, handlers: EventStreamHandlers): () => void {
  const source = new EventSource(withTokenQuery(path));
  let ended = false;
  const onMessage = (message: MessageEvent<string>) => {
    if (ended) return;
    const event = JSON.parse(message.data) as JobStreamEvent;
    handlers.onEvent(event);
    if (isJobEndEvent(event)) {
      ended = true;
      source.close();
      handlers.onEnd();
    }
  };
  for (const type of EVENT_TYPES) source.addEventListener(type, onMessage);
  source.onerror = () => {
    if (ended || source.readyState !== EventSource.CLOSED) return;
    ended = true;
    handlers.onClosed();
  };
  return () => {
    ended = true;
    source.close();
  };
}
