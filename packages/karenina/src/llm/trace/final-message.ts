import { type Message, messageText } from "../messages.js";
import { renderRawTrace } from "./raw-trace.js";

/** The final AI message's text, or why it could not be found. */
export type FinalMessageExtraction = { ok: true; text: string } | { ok: false; error: string };

const NOT_AI = "Last message in trace is not an AI message";
const NO_TEXT = "Final AI message has no text content (only tool calls)";

/** A block header of the raw trace: a line starting with `--- ` and ending with ` ---`. */
function isHeader(line: string): boolean {
  return line.startsWith("--- ") && line.endsWith(" ---");
}

function fromMessages(messages: readonly Message[]): FinalMessageExtraction {
  const last = messages.at(-1);
  if (last === undefined) return { ok: false, error: "Empty message list" };
  if (last.role !== "assistant") return { ok: false, error: NOT_AI };
  const text = messageText(last).trim();
  return text === "" ? { ok: false, error: NO_TEXT } : { ok: true, text };
}

function fromRawTrace(trace: string): FinalMessageExtraction {
  if (trace.trim() === "") return { ok: false, error: "Empty or whitespace-only trace" };
  const lines = trace.split("\n").map((line) => line.replace(/\r$/, ""));
  const lastHeader = lines.findLastIndex(isHeader);
  if (lastHeader === -1) return { ok: true, text: trace };
  if (!(lines[lastHeader] as string).startsWith("--- AI Message")) return { ok: false, error: NOT_AI };
  const body = lines.slice(lastHeader + 1);
  const toolCalls = body.findIndex((line) => line.trim().startsWith("Tool Calls:"));
  const text = (toolCalls === -1 ? body : body.slice(0, toolCalls)).join("\n").trim();
  return text === "" ? { ok: false, error: NO_TEXT } : { ok: true, text };
}

/**
 * The text of the conversation's final AI message (spec 04 §11.2), trimmed. From messages: the last one must be
 * an assistant message with text. From a raw trace: blocks start at header lines (`--- … ---`); a text without
 * headers is a plain answer and is returned whole; otherwise the last block must be an `--- AI Message` block,
 * and its `Tool Calls:` section is cut off. Errors are the original's: `Empty message list`, `Last message in
 * trace is not an AI message`, `Final AI message has no text content (only tool calls)`, `Empty or
 * whitespace-only trace`.
 * @example
 * extractFinalAiMessage("--- AI Message ---\nChecking.\nTool Calls:\n  search (call_1)\n\n--- Tool Message (call_id: 1) ---\nBCL2\n\n--- AI Message ---\nIt is BCL2.");
 * // { ok: true, text: "It is BCL2." }
 * extractFinalAiMessage([assistantMessage("", [{ id: "1", name: "search", input: {} }])]);
 * // { ok: false, error: "Final AI message has no text content (only tool calls)" }
 */
export function extractFinalAiMessage(input: readonly Message[] | string): FinalMessageExtraction {
  return typeof input === "string" ? fromRawTrace(input) : fromMessages(input);
}

/** The text a judge evaluates, and why the final message could not be extracted (null when it could). */
export interface EvaluationInput {
  text: string;
  error: string | null;
}

/**
 * What a judge call evaluates (spec 04 §11.2): with `useFullTrace` the whole trace (messages rendered as the raw
 * trace); otherwise the final AI message. When it cannot be extracted, the whole trace comes back with the error
 * `Failed to extract final AI message: <reason>`; each caller decides whether that is fatal.
 * @example
 * prepareEvaluationInput("--- AI Message ---\nBCL2", false); // { text: "BCL2", error: null }
 * prepareEvaluationInput([], false); // { text: "", error: "Failed to extract final AI message: Empty message list" }
 */
export function prepareEvaluationInput(
  input: readonly Message[] | string,
  useFullTrace: boolean,
): EvaluationInput {
  const full = typeof input === "string" ? input : renderRawTrace(input);
  if (useFullTrace) return { text: full, error: null };
  const extracted = extractFinalAiMessage(input);
  return extracted.ok
    ? { text: extracted.text, error: null }
    : { text: full, error: `Failed to extract final AI message: ${extracted.error}` };
}
