/**
 * A local stand-in for Tavily's search API on 127.0.0.1 (`POST /search`), for deep-judgment search tests.
 * Every reply is hand-written test data, not an answer of the real Tavily service: hits carry the URL
 * `https://example.org/hand-written/...` so a stray one is recognisable.
 */
import {
  type HttpReply,
  type RecordedRequest,
  type ScriptedHttpServer,
  startScriptedHttp,
} from "./scripted-http.js";

/** One hit of a hand-written reply. */
export interface TavilyHit {
  title: string;
  content: string;
  url: string;
}

/** A rule: the query it answers (a substring; any query when absent) and its hits, or an error status. */
export interface TavilyRule {
  match?: { queryIncludes?: string };
  reply: ({ results: TavilyHit[] } | { status: number }) & { delayMs?: number };
  repeat?: boolean;
}

export type TavilyTestServer = ScriptedHttpServer<TavilyRule>;
export type { RecordedRequest };

/** A hand-written hit about `subject`. */
export function handWrittenHit(subject: string, content: string): TavilyHit {
  return { title: `${subject} (hand-written)`, content, url: `https://example.org/hand-written/${subject}` };
}

/** Starts the stand-in. A query no rule answers gets a 500, so a test sees it fail as a search failure. */
export function startTavilyServer(rules: TavilyRule[] = []): Promise<TavilyTestServer> {
  return startScriptedHttp<TavilyRule>(({ method, path, body }, take): HttpReply | undefined => {
    if (method !== "POST" || path !== "/search") return undefined;
    const query = typeof body.query === "string" ? body.query : "";
    const rule = take((candidate) => query.includes(candidate.match?.queryIncludes ?? ""));
    if (rule === undefined) return { status: 500, payload: { detail: `no scripted reply for ${query}` } };
    if ("status" in rule.reply) return { status: rule.reply.status, payload: { detail: "scripted error" } };
    return {
      status: 200,
      payload: { query, answer: null, images: [], results: rule.reply.results, response_time: 0.01 },
    };
  }, rules);
}
