import type { Content } from "../llm/index.js";
import { pyRepr } from "../python-repr/index.js";
import { USER_AGENT_ID } from "../scenario/index.js";
import type { TaggedMessage } from "./runtime-types.js";

/** The label of one content block: `[__user__]` for node questions, else `[<agent>:<role>:<block type>]`. */
function blockLabel(entry: TaggedMessage, block: Content): string {
  return entry.agent_id === USER_AGENT_ID
    ? `[${USER_AGENT_ID}]`
    : `[${entry.agent_id}:${entry.message.role}:${block.type}]`;
}

/** What follows the label; `null` for thinking blocks, which a transcript leaves out. */
function blockPayload(block: Content): string | null {
  switch (block.type) {
    case "text":
      return block.text;
    case "tool_use": {
      const args = Object.entries(block.input)
        .filter(([, value]) => value !== undefined)
        .map(([key, value]) => `${key}=${pyRepr(value)}`);
      return `${block.name}(${args.join(", ")})`;
    }
    case "tool_result":
      return block.content;
    case "thinking":
      return null;
  }
}

/**
 * The tagged log as the labelled text a handover passes on (spec 08 §4.10.1): one line per content block, in
 * order, thinking left out; tool arguments in Python `repr`, as the original writes them; `""` for an empty log.
 * @example
 * const log = [
 *   { agent_id: "__user__", message: userMessage("What is BCL2?") },
 *   { agent_id: "primary", message: assistantMessage("BCL2 is a protein.") },
 * ];
 * formatTranscript(log); // "[__user__] What is BCL2?\n[primary:assistant:text] BCL2 is a protein."
 */
export function formatTranscript(log: readonly TaggedMessage[]): string {
  const lines: string[] = [];
  for (const entry of log) {
    for (const block of entry.message.content) {
      const payload = blockPayload(block);
      if (payload !== null) lines.push(`${blockLabel(entry, block)} ${payload}`);
    }
  }
  return lines.join("\n");
}
