import {
  assistantMessage,
  deserializeMessages,
  type Message,
  type SerializedMessage,
  TraceRecordError,
} from "../../llm/index.js";

/** How a scope's logs become the answer it evaluates (spec 05 §9). */
export type MergeStrategy = "concatenate" | "traces_only";

/** Where a log goes when it names a step: both scopes, the global one only, or the step only. */
export type LogTarget = "both" | "global" | "step";

/**
 * A trace as `logTrace` takes it: a string (one assistant message), unified messages, or messages in their
 * serialized form (`{role, content, tool_calls?, tool_result?, ...}`, as results and replay stores keep them).
 */
export type TraceInput = string | readonly (Message | SerializedMessageInput)[];

/** A serialized message as given: optional keys may be left out. */
export type SerializedMessageInput = Partial<SerializedMessage> & Pick<SerializedMessage, "role">;

/** One logged item: free text (`log`) or a structured trace (`logTrace`). */
export interface LogEntry {
  kind: "text" | "trace";
  messages: Message[];
}

function isMessage(value: unknown): value is Message {
  return typeof value === "object" && value !== null && Array.isArray((value as Message).content);
}

/**
 * The messages of a trace: a string is one assistant message; unified messages are copied; serialized ones
 * are read back.
 * @throws {TraceRecordError} naming the index and field of a serialized message that is not valid.
 */
export function traceMessages(trace: TraceInput): Message[] {
  if (typeof trace === "string") return [assistantMessage(trace)];
  return trace.map((item, index) => {
    if (isMessage(item)) return structuredClone(item);
    try {
      return deserializeMessages([item])[0] as Message;
    } catch (error) {
      if (error instanceof TraceRecordError) throw new TraceRecordError(index, error.problems);
      throw error;
    }
  });
}

/**
 * The messages a scope is evaluated on: every log's messages in logging order (`concatenate`, text logs being
 * assistant messages), or those of the structured traces only (`traces_only`).
 */
export function mergeLogs(entries: readonly LogEntry[], strategy: MergeStrategy): Message[] {
  return entries
    .filter((entry) => strategy === "concatenate" || entry.kind === "trace")
    .flatMap((entry) => entry.messages);
}
