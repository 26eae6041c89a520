/** Who speaks in a conversation (spec 05 §1). */
export type Role = "system" | "user" | "assistant" | "tool";

/** Plain text. */
export interface TextContent {
  type: "text";
  text: string;
}

/** A tool call made by the assistant. */
export interface ToolUseContent {
  type: "tool_use";
  id: string;
  name: string;
  input: Record<string, unknown>;
}

/** The result of a tool call, sent back in a `tool` message. */
export interface ToolResultContent {
  type: "tool_result";
  tool_use_id: string;
  content: string;
  is_error: boolean;
}

/** A model's visible reasoning. */
export interface ThinkingContent {
  type: "thinking";
  thinking: string;
  signature?: string;
}

export type Content = TextContent | ToolUseContent | ToolResultContent | ThinkingContent;

/** One message of the unified message model: a role and its content blocks. */
export interface Message {
  role: Role;
  content: Content[];
}

/** A system message holding `text`. */
export function systemMessage(text: string): Message {
  return { role: "system", content: [{ type: "text", text }] };
}

/** A user message holding `text`. */
export function userMessage(text: string): Message {
  return { role: "user", content: [{ type: "text", text }] };
}

/** An assistant message: its text (omitted when empty) followed by its tool calls. */
export function assistantMessage(text = "", toolCalls: Omit<ToolUseContent, "type">[] = []): Message {
  const content: Content[] = text === "" ? [] : [{ type: "text", text }];
  for (const call of toolCalls) content.push({ type: "tool_use", ...call });
  return { role: "assistant", content };
}

/** A tool message answering the call `toolUseId`. */
export function toolResultMessage(toolUseId: string, content: string, isError = false): Message {
  return {
    role: "tool",
    content: [{ type: "tool_result", tool_use_id: toolUseId, content, is_error: isError }],
  };
}

/** The concatenated text blocks of a message. */
export function messageText(message: Message): string {
  return message.content.map((block) => (block.type === "text" ? block.text : "")).join("");
}
