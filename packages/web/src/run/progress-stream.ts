import { withTokenQuery } from "../api/index.js";
import type { JobStreamEvent } from "../library-types/index.js";
import { followEventStream } from "../progress-events/index.js";

export interface ProgressStreamHandlers {
  onEvent(event: JobStreamEvent): void;
  /** The stream ended (the job finished, or the job is unknown: `notFound`). */
  onEnd(info: { readonly notFound: boolean }): void;
  /** Neither the WebSocket nor Server-Sent Events could be used. */
  onFailure(message: string): void;
}

function socketUrl(path: string): string {
  const protocol = window.location.protocol === "https:" ? "wss:" : "ws:";
  return `${protocol}//${window.location.host}${withTokenQuery(path)}`;
}

function followWithEvents(jobId: string, after: number, handlers: ProgressStreamHandlers): () => void {
  return followEventStream(`/api/v2/verifications/${encodeURIComponent(jobId)}/events?after=${after}`, {
    onEvent: handlers.onEvent,
    onEnd: () => handlers.onEnd({ notFound: false }),
    onClosed: () => handlers.onFailure("the progress stream closed; reload to reattach"),
  });
}

/**
 * Follows a verification job's progress: the WebSocket `/ws/verification-progress/{id}`, falling back to the
 * Server-Sent Events twin when the socket cannot open. `after` = 0 replays every event of the job from the
 * server's log (after a snapshot), so a reloaded page rebuilds its counts. Returns the function that stops.
 */
export function followJobProgress(
  jobId: string,
  after: number,
  handlers: ProgressStreamHandlers,
): () => void {
  let stopFallback: (() => void) | undefined;
  let opened = false;
  let stopped = false;
  const socket = new WebSocket(
    socketUrl(`/ws/verification-progress/${encodeURIComponent(jobId)}?after=${after}`),
  );
  socket.onopen = () => {
    opened = true;
  };
  socket.onmessage = (message) => handlers.onEvent(JSON.parse(String(message.data)) as JobStreamEvent);
  socket.onclose = (close) => {
    if (stopped) return;
    if (!opened) {
      stopFallback = followWithEvents(jobId, after, handlers);
      return;
    }
    if (close.code === 1000 || close.code === 1008) handlers.onEnd({ notFound: close.code === 1008 });
    else handlers.onFailure(`the progress connection closed (${close.code}); reload the page to reattach`);
  };
  return () => {
    stopped = true;
    socket.close();
    stopFallback?.();
  };
}
