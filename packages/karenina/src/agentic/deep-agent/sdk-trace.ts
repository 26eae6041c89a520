/**
 * The Claude Agent SDK's message stream as the library's trace (spec 05 §5.3): top-level assistant turns and
 * the tool results fed back to them, usage and outcome from the closing result message.
 */
import {
  type Content,
  emptyUsage,
  type TraceMessage,
  toolResultMessage,
  type UsageMetadata,
} from "../../llm/index.js";

/** The fields of the SDK's stream messages read here (a frame is one JSON line of Claude Code's output). */
export interface SdkFrame {
  type: string;
  subtype?: string;
  /** Set on the messages of a sub-agent: they stay out of the trace (its result comes back as a tool result). */
  parent_tool_use_id?: string | null;
  [key: string]: unknown;
}

interface AnthropicUsage {
  input_tokens?: number;
  output_tokens?: number;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
}

interface ContentBlock {
  type: string;
  text?: string;
  thinking?: string;
  signature?: string;
  id?: string;
  name?: string;
  input?: unknown;
  tool_use_id?: string;
  content?: unknown;
  is_error?: boolean;
}

/** What the stream says about the run besides the trace. */
export interface SdkRun {
  trace: TraceMessage[];
  /** The closing result message, or null when the stream ended without one (killed, timed out). */
  result: SdkFrame | null;
  /** Usage from the result message (tokens, cost, cache tokens); empty without one. */
  usage: UsageMetadata;
  /** The model named by the session's init message. */
  actualModel?: string;
}

function usageOf(usage: AnthropicUsage | undefined, model: string | undefined): UsageMetadata {
  const input = usage?.input_tokens ?? 0;
  const output = usage?.output_tokens ?? 0;
  const result: UsageMetadata = { input_tokens: input, output_tokens: output, total_tokens: input + output };
  if (usage?.cache_read_input_tokens) result.cache_read_tokens = usage.cache_read_input_tokens;
  if (usage?.cache_creation_input_tokens) result.cache_creation_tokens = usage.cache_creation_input_tokens;
  if (model !== undefined) result.model = model;
  return result;
}

function blocksOf(message: unknown): ContentBlock[] {
  const content = (message as { content?: unknown } | undefined)?.content;
  return Array.isArray(content) ? (content as ContentBlock[]) : [];
}

/** A tool result's content: a string, or text blocks joined. */
function resultText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return content === undefined ? "" : JSON.stringify(content);
  return (content as ContentBlock[])
    .map((block) =>
      block.type === "text" && typeof block.text === "string" ? block.text : JSON.stringify(block),
    )
    .join("\n");
}

function assistantBlocks(blocks: readonly ContentBlock[]): Content[] {
  const out: Content[] = [];
  for (const block of blocks) {
    if (block.type === "text" && typeof block.text === "string") out.push({ type: "text", text: block.text });
    else if (block.type === "thinking" && typeof block.thinking === "string") {
      out.push({
        type: "thinking",
        thinking: block.thinking,
        ...(block.signature === undefined ? {} : { signature: block.signature }),
      });
    } else if (block.type === "tool_use" && typeof block.id === "string") {
      const input = block.input;
      out.push({
        type: "tool_use",
        id: block.id,
        name: block.name ?? "",
        input:
          input !== null && typeof input === "object" && !Array.isArray(input)
            ? (input as Record<string, unknown>)
            : { input },
      });
    }
  }
  return out;
}

/**
 * The trace of a Claude Code session from its stream messages. Assistant frames of one API message (Claude
 * Code streams one content block per frame) merge into one assistant message carrying that call's usage;
 * tool results become tool messages; sub-agent frames and everything else (init, status, hooks) are left out.
 * @example
 * const run = traceFromSdkMessages([{ type: "assistant", parent_tool_use_id: null, message: { id: "m1", model: "claude-x", content: [{ type: "text", text: "Done." }], usage: { input_tokens: 3, output_tokens: 1 } } }, { type: "result", subtype: "success", usage: { input_tokens: 3, output_tokens: 1 }, total_cost_usd: 0.01, num_turns: 1 }]);
 * run.trace.length; // 1
 * run.usage; // { input_tokens: 3, output_tokens: 1, total_tokens: 4, cost_usd: 0.01 }
 */
export function traceFromSdkMessages(frames: readonly SdkFrame[]): SdkRun {
  const trace: TraceMessage[] = [];
  let result: SdkFrame | null = null;
  let actualModel: string | undefined;
  let lastAssistantId: string | undefined;
  for (const frame of frames) {
    if (frame.type === "system" && frame.subtype === "init" && typeof frame.model === "string") {
      actualModel = frame.model;
    }
    if (frame.type === "result") result = frame;
    if (frame.parent_tool_use_id != null) continue;
    if (frame.type === "assistant") {
      const message = frame.message as { id?: string; model?: string; usage?: AnthropicUsage } | undefined;
      const blocks = assistantBlocks(blocksOf(message));
      const previous = trace.at(-1);
      if (message?.id !== undefined && message.id === lastAssistantId && previous?.role === "assistant") {
        previous.content.push(...blocks);
      } else {
        trace.push({
          role: "assistant",
          content: blocks,
          usage_metadata: { ...usageOf(message?.usage, message?.model) },
        });
      }
      lastAssistantId = message?.id;
    } else if (frame.type === "user") {
      for (const block of blocksOf(frame.message)) {
        if (block.type !== "tool_result" || typeof block.tool_use_id !== "string") continue;
        trace.push(toolResultMessage(block.tool_use_id, resultText(block.content), block.is_error === true));
        lastAssistantId = undefined;
      }
    }
  }
  let usage = emptyUsage();
  if (result !== null) {
    usage = usageOf(result.usage as AnthropicUsage | undefined, undefined);
    if (typeof result.total_cost_usd === "number") usage.cost_usd = result.total_cost_usd;
  }
  return { trace, result, usage, ...(actualModel === undefined ? {} : { actualModel }) };
}
