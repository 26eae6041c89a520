/**
 * Helpers for tests of verification jobs over HTTP: the scripted replies and config of the drug benchmark
 * (hand-written test data, not the output of any model), a client of a running server, and a progress watcher.
 */
import { WebSocket } from "undici";
import { drugBenchmark } from "../../test-support/cli.js";
import type { ScriptRule } from "../../test-support/openai-server/index.js";

/** Replies for the drug benchmark; `delayMs` slows every answer so a test can act mid-job. */
export function drugReplies(delayMs = 0): ScriptRule[] {
  return [
    { match: { model: "answerer" }, reply: { text: "Venetoclax.", delayMs }, repeat: true },
    { match: { model: "judge" }, reply: { json: { drug: "venetoclax" } }, repeat: true },
  ];
}

/** A VerificationConfig answering with the scripted server's model `answerer` and judging with `judge`. */
export function scriptedConfig(
  baseURL: string,
  models: { answerer: string; judge: string },
  extra: Record<string, unknown> = {},
) {
  const model = (name: string) => ({
    id: name,
    model_provider: "openai",
    model_name: name,
    interface: "openai_endpoint",
    endpoint_base_url: baseURL,
    endpoint_api_key: "sk-test",
  });
  return { answering_models: [model(models.answerer)], parsing_models: [model(models.judge)], ...extra };
}

/** A VerificationConfig answering with `answerer` and judging with `judge` on the scripted server. */
export const drugConfig = (baseURL: string, extra: Record<string, unknown> = {}) =>
  scriptedConfig(baseURL, { answerer: "answerer", judge: "judge" }, extra);

/** The JSON-LD of a drug benchmark of `questions` questions. */
export const drugCheckpoint = (questions: number, name = "jobs-test"): Record<string, unknown> =>
  JSON.parse(drugBenchmark(questions, name).serialize());

/** A response's JSON, as a test reads it. */
// biome-ignore lint/suspicious/noExplicitAny: tests read response bodies loosely and assert on them.
export const json = (res: Response): Promise<any> => res.json();

/** The statuses a job never leaves. */
const FINAL_STATUSES = ["completed", "failed", "cancelled"];

/** A client of the server at `url` with its `token`. */
export function apiClient(url: string, token: string) {
  const headers = (withJson = false): Record<string, string> => ({
    authorization: `Bearer ${token}`,
    ...(withJson ? { "content-type": "application/json" } : {}),
  });
  const get = (path: string, extra: Record<string, string> = {}) =>
    fetch(`${url}${path}`, { headers: { ...headers(), ...extra } });
  const post = (path: string, body: unknown) =>
    fetch(`${url}${path}`, { method: "POST", headers: headers(true), body: JSON.stringify(body) });
  const del = (path: string) => fetch(`${url}${path}`, { method: "DELETE", headers: headers() });

  /**
   * Polls a job's progress until its status is `wanted` (about 20 s at most); fails at once when the job ends
   * in another final status.
   */
  async function waitForStatus(jobId: string, wanted: string, tries = 1000) {
    let last: unknown;
    for (let i = 0; i < tries; i++) {
      last = await json(await get(`/api/v2/verifications/${jobId}/progress`));
      const status = (last as { status?: string }).status;
      if (status === wanted) return last as Record<string, unknown>;
      if (status !== undefined && FINAL_STATUSES.includes(status)) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`job ${jobId} never became ${wanted}; last seen ${JSON.stringify(last)}`);
  }

  /** Opens the progress socket and collects its events until the server closes it. */
  function watch(jobId: string, after?: number) {
    const query = after === undefined ? "" : `?after=${after}`;
    const ws = new WebSocket(`${url.replace("http", "ws")}/ws/verification-progress/${jobId}${query}`, {
      headers: headers(),
    });
    const events: Record<string, unknown>[] = [];
    ws.addEventListener("message", (event) => events.push(JSON.parse(String(event.data))));
    const closed = new Promise<{ code: number; reason: string }>((resolve) =>
      ws.addEventListener("close", (event) => resolve({ code: event.code, reason: event.reason })),
    );
    const opened = new Promise<void>((resolve) => ws.addEventListener("open", () => resolve()));
    return { events, closed, opened, close: () => ws.close() };
  }

  return { get, post, del, waitForStatus, watch };
}
