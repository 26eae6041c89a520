import { z } from "zod";
import { dottedPath, KareninaError, type SchemaProblem, schemaProblems } from "../../errors/index.js";
import { type Content, type Message, messageText } from "../messages.js";

/**
 * A message that may carry the usage of the call that produced it (assistant turns, when the adapter reports
 * it). `Message` itself has no such field yet; this is the shape the serialized form round-trips.
 */
export type TraceMessage = Message & { usage_metadata?: Record<string, unknown> };

/**
 * One message in the original's `toDict` form (spec 05 §1), as stored in `template.trace_messages`,
 * `conversation_context`, replay entries and TaskEval caches. Unknown keys are dropped on reading; the optional
 * keys may be absent or null.
 */
export const SerializedMessageSchema = z.object({
  role: z.enum(["system", "user", "assistant", "tool"]),
  /** Tool messages: the first tool result's content; others: the concatenated text blocks. */
  content: z.string().default(""),
  /** Position in the list. */
  block_index: z.int().min(0).default(0),
  tool_calls: z
    .array(
      z.object({ id: z.string(), name: z.string(), input: z.record(z.string(), z.unknown()).default({}) }),
    )
    .nullish(),
  tool_result: z.object({ tool_use_id: z.string(), is_error: z.boolean().default(false) }).nullish(),
  thinking: z.object({ thinking: z.string(), signature: z.string().nullish() }).nullish(),
  usage_metadata: z.record(z.string(), z.unknown()).nullish(),
});
export type SerializedMessage = z.output<typeof SerializedMessageSchema>;

/** A stored message record that is not a valid serialized message. Names the record's index and the field. */
export class TraceRecordError extends KareninaError {
  override readonly name: string = "TraceRecordError";

  constructor(
    readonly index: number,
    readonly problems: readonly SchemaProblem[],
  ) {
    const rendered = problems.map((p) => `${dottedPath([index, ...p.path])}: ${p.message}`).join("; ");
    super(`invalid trace message record: ${rendered}`);
  }
}

/** The toDict form of one message; `blockIndex` is its position in the list. */
function serializeMessage(message: TraceMessage, blockIndex: number): SerializedMessage {
  const toolResult = message.content.find((block) => block.type === "tool_result");
  const toolCalls = message.content.flatMap((block) =>
    block.type === "tool_use" ? [{ id: block.id, name: block.name, input: block.input }] : [],
  );
  const thinking = message.content.find((block) => block.type === "thinking");
  const record: SerializedMessage = {
    role: message.role,
    content: message.role === "tool" ? (toolResult?.content ?? "") : messageText(message),
    block_index: blockIndex,
  };
  if (toolCalls.length > 0) record.tool_calls = toolCalls;
  if (message.role === "tool" && toolResult !== undefined) {
    record.tool_result = { tool_use_id: toolResult.tool_use_id, is_error: toolResult.is_error };
  }
  if (thinking !== undefined) {
    record.thinking = {
      thinking: thinking.thinking,
      ...(thinking.signature === undefined ? {} : { signature: thinking.signature }),
    };
  }
  if (message.usage_metadata !== undefined) record.usage_metadata = message.usage_metadata;
  return record;
}

/**
 * Messages in the original's serialized form (spec 05 §1): `{role, content, block_index, tool_calls?,
 * tool_result?, thinking?, usage_metadata?}`, `block_index` = position in the list. The form is lossy where the
 * original's is: only a message's first thinking block and (for tool messages) first tool result are kept, and
 * text is concatenated.
 * @example
 * serializeMessages([assistantMessage("Let me look.", [{ id: "t1", name: "search", input: { q: "BCL2" } }]), toolResultMessage("t1", "found")]);
 * // [{ role: "assistant", content: "Let me look.", block_index: 0, tool_calls: [{ id: "t1", name: "search", input: { q: "BCL2" } }] }, { role: "tool", content: "found", block_index: 1, tool_result: { tool_use_id: "t1", is_error: false } }]
 */
export function serializeMessages(messages: readonly TraceMessage[]): SerializedMessage[] {
  return messages.map(serializeMessage);
}

/** The message a validated record describes: thinking first, then text (when not empty), then tool calls. */
function deserializeMessage(record: SerializedMessage): TraceMessage {
  const content: Content[] = [];
  if (record.thinking) {
    const { thinking, signature } = record.thinking;
    content.push({ type: "thinking", thinking, ...(signature == null ? {} : { signature }) });
  }
  if (record.role === "tool" && record.tool_result) {
    const { tool_use_id, is_error } = record.tool_result;
    content.push({ type: "tool_result", tool_use_id, content: record.content, is_error });
  } else if (record.content !== "") {
    content.push({ type: "text", text: record.content });
  }
  for (const call of record.tool_calls ?? []) content.push({ type: "tool_use", ...call });
  const message: TraceMessage = { role: record.role, content };
  if (record.usage_metadata != null) message.usage_metadata = record.usage_metadata;
  return message;
}

/**
 * Messages from their serialized form (the original's `fromDict`): a tool message's content becomes its tool
 * result (not also a text block); an empty `content` gives no text block.
 * @throws TraceRecordError naming the first invalid record's index and field.
 * @example
 * deserializeMessages([{ role: "tool", content: "404", tool_result: { tool_use_id: "t1", is_error: true } }]);
 * // [{ role: "tool", content: [{ type: "tool_result", tool_use_id: "t1", content: "404", is_error: true }] }]
 */
export function deserializeMessages(records: readonly unknown[]): TraceMessage[] {
  return records.map((record, index) => {
    const result = SerializedMessageSchema.safeParse(record);
    if (!result.success) throw new TraceRecordError(index, schemaProblems(result.error, record));
    return deserializeMessage(result.data);
  });
}
