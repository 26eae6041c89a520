import { createRoute } from "@hono/zod-openapi";
import { streamSSE } from "hono/streaming";
import { z } from "zod";
import { errorResponses, type ServerApp, type ServerHooks } from "../core/index.js";
import { type JobEvent, JobEventSchema, type JobRunner, jobNotFound } from "../jobs/index.js";

// One event goes to every subscriber of its job: its JSON text is made once and shared (50 subscribers of a
// 2,000-task job would otherwise stringify 200,000 copies, garbage that grows the server's heap mid-job).
const eventTexts = new WeakMap<JobEvent, string>();

/** The JSON text of an event, made on first use and shared by every stream that sends it. */
function eventText(event: JobEvent): string {
  let text = eventTexts.get(event);
  if (text === undefined) {
    text = JSON.stringify(event);
    eventTexts.set(event, text);
  }
  return text;
}

/** `?after=<seq>`: replay the events after it (a reconnecting client names the last one it saw). */
function afterSeq(value: string | undefined): number | undefined {
  if (value === undefined || value === "") return undefined;
  const seq = Number.parseInt(value, 10);
  return Number.isInteger(seq) && seq >= 0 ? seq : undefined;
}

/** The SSE route's definition, so the OpenAPI document lists it (`:job_id` written `{job_id}` there). */
function sseRoute(path: string, tag: string) {
  return createRoute({
    method: "get",
    path: path.replace(/:([A-Za-z_]+)/g, "{$1}"),
    tags: [tag],
    summary:
      "A job's progress events as Server-Sent Events: a snapshot, the events after `after`, then live ones",
    request: {
      params: z.object({ job_id: z.string() }),
      query: z.object({ after: z.string().optional().describe("Replay the events after this seq") }),
      headers: z.object({
        "last-event-id": z.string().optional().describe("As `after`, sent by a reconnecting EventSource"),
      }),
    },
    responses: {
      200: {
        content: { "text/event-stream": { schema: JobEventSchema } },
        description: "Events (`id` = seq, `event` = type, `data` = the JobEvent); ends when the job does",
      },
      ...errorResponses(404),
    },
  });
}

/**
 * Mounts a job kind's live progress (spec 07 §2.3): a WebSocket at `wsPath` (`/ws/<kind>-progress/:job_id`) and
 * the same events as Server-Sent Events at `ssePath`. Each stream sends a `snapshot` first, then the events
 * after `?after=<seq>` (SSE: or `Last-Event-ID`), then live events, and ends when the job does. An unknown
 * job: the socket is closed with 1008 "Job not found"; SSE answers 404.
 */
export function mountProgressStreams(
  app: ServerApp,
  hooks: ServerHooks,
  runner: JobRunner,
  paths: { wsPath: string; ssePath: string; tag?: string },
): void {
  app.get(
    paths.wsPath,
    hooks.upgradeWebSocket((c) => {
      const id = c.req.param("job_id") ?? "";
      const after = afterSeq(c.req.query("after"));
      let stop: (() => void) | null = null;
      return {
        onOpen: (_event, ws) => {
          void runner
            .subscribe(id, after, {
              onEvent: (event) => ws.send(eventText(event)),
              onEnd: () => ws.close(1000, "job finished"),
            })
            .then((unsubscribe) => {
              if (unsubscribe === null) ws.close(1008, "Job not found");
              else stop = unsubscribe;
            })
            .catch(() => ws.close(1011, "cannot read the job"));
        },
        onClose: () => stop?.(),
      };
    }),
  );
  app.openapi(sseRoute(paths.ssePath, paths.tag ?? "progress"), async (c) => {
    const id = c.req.param("job_id") ?? "";
    const after = afterSeq(c.req.query("after") ?? c.req.header("last-event-id"));
    if ((await runner.get(id)) === null) throw jobNotFound(id);
    return streamSSE(c, async (stream) => {
      let ended!: () => void;
      const done = new Promise<void>((resolve) => {
        ended = resolve;
      });
      let chain = Promise.resolve();
      const unsubscribe = await runner.subscribe(id, after, {
        onEvent: (event) => {
          chain = chain.then(() =>
            stream.writeSSE({ id: String(event.seq), event: event.type, data: eventText(event) }),
          );
        },
        onEnd: () => {
          void chain.then(ended);
        },
      });
      stream.onAbort(() => {
        unsubscribe?.();
        ended();
      });
      if (unsubscribe === null) ended();
      await done;
      await chain;
    });
  });
}
