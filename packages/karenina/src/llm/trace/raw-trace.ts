import { pyRepr } from "../../python-repr/index.js";
import { type Message, messageText } from "../messages.js";

/** The header of an assistant block of the raw trace. */
export const AI_MESSAGE_HEADER = "--- AI Message ---";

function assistantBlocks(message: Message): string[] {
  const blocks: string[] = [];
  for (const block of message.content) {
    if (block.type === "thinking") blocks.push(`--- Thinking ---\n${block.thinking}`);
  }
  const text = messageText(message);
  const calls = message.content.filter((block) => block.type === "tool_use");
  if (text === "" && calls.length === 0) return blocks;
  const lines = [AI_MESSAGE_HEADER];
  if (text !== "") lines.push(text);
  if (calls.length > 0) {
    lines.push("Tool Calls:");
    for (const call of calls) {
      lines.push(`  ${call.name} (call_${call.id})`, `   Call ID: ${call.id}`);
      if (Object.keys(call.input).length > 0) lines.push(`   Args: ${pyRepr(call.input)}`);
    }
  }
  blocks.push(lines.join("\n"));
  return blocks;
}

function toolBlocks(message: Message): string[] {
  return message.content.flatMap((block) =>
    block.type === "tool_result"
      ? [
          `--- Tool Message (call_id: ${block.tool_use_id}) ---\n${block.is_error ? "[ERROR] " : ""}${block.content}`,
        ]
      : [],
  );
}

/**
 * The raw trace text of a conversation (spec 04 §11.1), the canonical `raw_llm_response`: blocks separated by
 * a blank line. An assistant message gives its `--- Thinking ---` blocks, then an `--- AI Message ---` block
 * with its text and a `Tool Calls:` section (each call's name, id and, unless empty, its input as a Python dict
 * literal); an assistant message with neither text nor tool calls gives no AI block. Each tool result gives a
 * `--- Tool Message (call_id: <id>) ---` block, its content prefixed `[ERROR] ` when it is an error. User and
 * system messages are left out.
 * @example
 * renderRawTrace([userMessage("Target?"), assistantMessage("", [{ id: "t1", name: "search", input: { q: "venetoclax", n: 2 } }]), toolResultMessage("t1", "BCL2"), assistantMessage("BCL2.")]);
 * // "--- AI Message ---\nTool Calls:\n  search (call_t1)\n   Call ID: t1\n   Args: {'q': 'venetoclax', 'n': 2}\n\n--- Tool Message (call_id: t1) ---\nBCL2\n\n--- AI Message ---\nBCL2."
 */
export function renderRawTrace(messages: readonly Message[]): string {
  const blocks = messages.flatMap((message) => {
    if (message.role === "assistant") return assistantBlocks(message);
    if (message.role === "tool") return toolBlocks(message);
    return [];
  });
  return blocks.join("\n\n");
}
