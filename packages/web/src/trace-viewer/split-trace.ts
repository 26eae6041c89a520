import type { TraceColour, TracePattern } from "./highlight-patterns.js";
import { compileUserRegex, MAX_HEADER_LINE } from "./safe-regex.js";

/** One message of a trace as the viewer shows it. */
export interface TraceBlock {
  /** The header shown above the body (the header line, or the message's role). */
  readonly title: string;
  /** Null: no pattern (text before the first header, or highlighting off). */
  readonly colour: TraceColour | null;
  readonly body: string;
}

/** A pattern that cannot be used, and why. */
export interface PatternProblem {
  readonly pattern: TracePattern;
  readonly error: string;
}

export interface SplitTrace {
  readonly blocks: readonly TraceBlock[];
  readonly problems: readonly PatternProblem[];
}

/**
 * Splits a raw trace into message blocks at lines matching an enabled pattern (the first pattern that
 * matches a line wins). Text before the first header is a block of its own, titled "Start". A pattern that
 * is not a valid regex is skipped and reported, never thrown; lines longer than {@link MAX_HEADER_LINE} are
 * never headers.
 * @example
 * splitTrace("--- AI Message ---\nhi", DEFAULT_TRACE_HIGHLIGHTING.patterns).blocks;
 * // [{ title: "--- AI Message ---", colour: "green", body: "hi" }]
 */
export function splitTrace(text: string, patterns: readonly TracePattern[]): SplitTrace {
  const problems: PatternProblem[] = [];
  const compiled: { regex: RegExp; colour: TraceColour }[] = [];
  for (const pattern of patterns) {
    if (!pattern.enabled || pattern.regex === "") continue;
    const result = compileUserRegex(pattern.regex, "");
    if (result.regex === undefined) problems.push({ pattern, error: result.error });
    else compiled.push({ regex: result.regex, colour: pattern.colour });
  }
  const blocks: TraceBlock[] = [];
  let current: { title: string; colour: TraceColour | null; lines: string[] } = {
    title: "Start",
    colour: null,
    lines: [],
  };
  const flush = () => {
    const body = current.lines.join("\n");
    if (current.colour !== null || body.trim() !== "")
      blocks.push({ title: current.title, colour: current.colour, body });
  };
  for (const line of text.split("\n")) {
    const header =
      line.length <= MAX_HEADER_LINE ? compiled.find(({ regex }) => regex.test(line)) : undefined;
    if (header === undefined) {
      current.lines.push(line);
      continue;
    }
    flush();
    current = { title: line.trim(), colour: header.colour, lines: [] };
  }
  flush();
  return { blocks, problems };
}

/** The fields of a stored trace message the viewer reads (spec 05 §1 serialized form). */
interface MessageLike {
  readonly role?: unknown;
  readonly content?: unknown;
  readonly tool_calls?: unknown;
  readonly tool_result?: unknown;
}

const ROLE_TITLES: Readonly<Record<string, { title: string; colour: TraceColour }>> = {
  assistant: { title: "AI Message", colour: "green" },
  tool: { title: "Tool Message", colour: "yellow" },
  user: { title: "Human Message", colour: "blue" },
  system: { title: "System Message", colour: "grey" },
};

function toolCallsText(calls: unknown): string {
  if (!Array.isArray(calls) || calls.length === 0) return "";
  const lines = calls.map((call: { name?: unknown; input?: unknown }) => {
    const name = typeof call?.name === "string" ? call.name : "tool";
    return `→ ${name}(${JSON.stringify(call?.input ?? {})})`;
  });
  return `\n${lines.join("\n")}`;
}

/**
 * The blocks of `template.trace_messages` (spec 06 §1.4): one per message, titled by role (tool messages with
 * their call id), tool calls listed under the assistant's text.
 */
export function blocksFromMessages(messages: readonly Record<string, unknown>[]): TraceBlock[] {
  return messages.map((raw) => {
    const message = raw as MessageLike;
    const role = typeof message.role === "string" ? message.role : "message";
    const known = ROLE_TITLES[role];
    const callId = (message.tool_result as { tool_use_id?: unknown } | null | undefined)?.tool_use_id;
    const title =
      (known?.title ?? role) + (role === "tool" && typeof callId === "string" ? ` (call_id: ${callId})` : "");
    const content =
      typeof message.content === "string" ? message.content : JSON.stringify(message.content ?? "");
    return { title, colour: known?.colour ?? null, body: content + toolCallsText(message.tool_calls) };
  });
}
