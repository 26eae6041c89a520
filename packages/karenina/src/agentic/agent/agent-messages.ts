/** Conversions between the library's messages and the AI SDK's for the tool loop, in both directions. */
import type { AssistantContent, ModelMessage, StepResult, ToolSet } from "ai";
import {
  type Content,
  fromSdkUsage,
  type Message,
  messageText,
  type TraceMessage,
  toolResultMessage,
} from "../../llm/index.js";

/** A finished step of the loop: what the model produced (and the tools answered), and what it cost. */
export type AgentStep = Pick<StepResult<ToolSet>, "content" | "usage">;

/** The system text (system messages joined by a blank line) and the conversation, as the AI SDK takes them. */
export interface AgentPrompt {
  system: string | null;
  messages: ModelMessage[];
}

/**
 * A conversation as the AI SDK's prompt: system messages become the system text; assistant tool calls,
 * thinking and tool results keep their structure, so a run can continue an earlier agent conversation.
 */
export function toAgentPrompt(messages: readonly Message[]): AgentPrompt {
  const system: string[] = [];
  const toolNames = new Map<string, string>();
  const out: ModelMessage[] = [];
  for (const message of messages) {
    if (message.role === "system") system.push(messageText(message));
    else if (message.role === "user") out.push({ role: "user", content: messageText(message) });
    else if (message.role === "assistant") {
      const content: Exclude<AssistantContent, string> = [];
      for (const block of message.content) {
        if (block.type === "text") content.push({ type: "text", text: block.text });
        else if (block.type === "thinking") content.push({ type: "reasoning", text: block.thinking });
        else if (block.type === "tool_use") {
          toolNames.set(block.id, block.name);
          content.push({ type: "tool-call", toolCallId: block.id, toolName: block.name, input: block.input });
        }
      }
      out.push({ role: "assistant", content });
    } else {
      const content = message.content.flatMap((block) =>
        block.type === "tool_result"
          ? [
              {
                type: "tool-result" as const,
                toolCallId: block.tool_use_id,
                toolName: toolNames.get(block.tool_use_id) ?? "unknown",
                output: block.is_error
                  ? { type: "error-text" as const, value: block.content }
                  : { type: "text" as const, value: block.content },
              },
            ]
          : [],
      );
      out.push({ role: "tool", content });
    }
  }
  return { system: system.length === 0 ? null : system.join("\n\n"), messages: out };
}

/** A tool's output as the trace's text: strings as they are, anything else as JSON. */
function outputText(output: unknown): string {
  if (typeof output === "string") return output;
  return output === undefined ? "" : JSON.stringify(output);
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function inputObject(input: unknown): Record<string, unknown> {
  return input !== null && typeof input === "object" && !Array.isArray(input)
    ? (input as Record<string, unknown>)
    : { input };
}

/**
 * The trace of a tool loop: per step, one assistant message (thinking, text, then tool calls with their input,
 * and the step's usage as `usage_metadata`), then one tool message per tool result, in call order. A tool
 * that threw, or a call the model got wrong (unknown tool, invalid input), gives an error result.
 * @example
 * traceFromSteps([{ content: [{ type: "text", text: "BCL2." }], usage: { inputTokens: 9, outputTokens: 2, totalTokens: 11 } }], "m");
 * // [{ role: "assistant", content: [{ type: "text", text: "BCL2." }], usage_metadata: { input_tokens: 9, output_tokens: 2, total_tokens: 11, model: "m" } }]
 */
export function traceFromSteps(steps: readonly AgentStep[], model: string): TraceMessage[] {
  const trace: TraceMessage[] = [];
  for (const step of steps) {
    const thinking: Content[] = [];
    const text: Content[] = [];
    const calls: Content[] = [];
    const results: Message[] = [];
    for (const part of step.content) {
      if (part.type === "reasoning") thinking.push({ type: "thinking", thinking: part.text });
      else if (part.type === "text") text.push({ type: "text", text: part.text });
      else if (part.type === "tool-call") {
        calls.push({
          type: "tool_use",
          id: part.toolCallId,
          name: part.toolName,
          input: inputObject(part.input),
        });
      } else if (part.type === "tool-result") {
        results.push(toolResultMessage(part.toolCallId, outputText(part.output)));
      } else if (part.type === "tool-error") {
        results.push(toolResultMessage(part.toolCallId, errorText(part.error), true));
      }
    }
    // The SDK lists the results of invalid calls before those of executed ones; the trace keeps call order.
    const order = calls.map((call) => (call.type === "tool_use" ? call.id : ""));
    const position = (message: Message) => {
      const block = message.content[0];
      const index = block?.type === "tool_result" ? order.indexOf(block.tool_use_id) : -1;
      return index < 0 ? order.length : index;
    };
    results.sort((a, b) => position(a) - position(b));
    const usage = { ...fromSdkUsage(step.usage, model) };
    trace.push(
      { role: "assistant", content: [...thinking, ...text, ...calls], usage_metadata: usage },
      ...results,
    );
  }
  return trace;
}
