/**
 * What the fake provider servers share on top of the scripted-HTTP machinery: the script's reply and rule types,
 * token counts, and how a streamed answer is paced and framed in each provider's wire format.
 */
import type {
  HttpReply,
  RecordedRequest,
  ScriptedReplyOf,
  ScriptMatch,
  ScriptRuleOf,
} from "../scripted-http.js";

export type { HttpReply, RecordedRequest, ScriptMatch };

/** Token counts reported in the reply. */
export interface ScriptedTokens {
  input: number;
  output: number;
}

/**
 * How a streamed answer is paced. A text or JSON reply to a request asking for a stream is sent word by word
 * (each chunk a word and the whitespace after it); the server pauses `stallMs` after the first `stallAfter`
 * chunks (default: all of them) before the other chunks and the end of the stream (finish reason and usage),
 * so a client whose timeout is shorter sees only the first chunks, as from a model stalling mid-answer.
 */
export interface StreamPacing {
  stallAfter?: number;
  stallMs?: number;
}

/** One frame of a streamed reply: text (SSE, NDJSON) or bytes (AWS event stream). */
export type StreamFrame = string | Uint8Array;

/**
 * How a provider frames a streamed answer: the frames opening it, the frames of each text delta, and the frames
 * closing it (finish reason and usage).
 */
export interface StreamFraming {
  contentType: string;
  open(): StreamFrame[];
  delta(text: string): StreamFrame[];
  close(tokens: ScriptedTokens): StreamFrame[];
}

/** The text of a scripted success reply: its text, or its JSON serialized (`""` for other replies). */
export function replyText(reply: object): string {
  if ("text" in reply && typeof reply.text === "string") return reply.text;
  return "json" in reply ? JSON.stringify(reply.json) : "";
}

/**
 * The HTTP reply streaming the text of `reply` word by word in `framing`: the opening frames and the chunks
 * before the stall at once, then (after `stallMs`) the other chunks and the closing frames with the reply's
 * usage, else `defaultTokens`.
 */
export function streamedReply(
  framing: StreamFraming,
  reply: StreamPacing & { usage?: ScriptedTokens },
  defaultTokens: ScriptedTokens,
  headers: Record<string, string> = {},
): HttpReply {
  const chunks = replyText(reply).split(/(?<=\s)(?=\S)/);
  const cut = reply.stallAfter ?? chunks.length;
  const deltas = (some: string[]) => some.flatMap((chunk) => framing.delta(chunk));
  return {
    status: 200,
    headers,
    payload: null,
    stream: {
      contentType: framing.contentType,
      head: [...framing.open(), ...deltas(chunks.slice(0, cut))],
      tail: [...deltas(chunks.slice(cut)), ...framing.close(reply.usage ?? defaultTokens)],
      ...(reply.stallMs === undefined ? {} : { stallMs: reply.stallMs }),
    },
  };
}

/** One server-sent event: its `data` line (JSON), after an `event` line when the API names its events. */
export function sseFrame(data: unknown, event?: string): string {
  return `${event === undefined ? "" : `event: ${event}\n`}data: ${JSON.stringify(data)}\n\n`;
}

/** What a fake provider server sends back. */
export type ScriptedReply = ScriptedReplyOf<ScriptedTokens>;

/** One rule of a fake provider server's script. */
export type ScriptRule = ScriptRuleOf<ScriptMatch, ScriptedReply>;
