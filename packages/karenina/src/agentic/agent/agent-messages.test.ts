import { describe, expect, test } from "vitest";
import { assistantMessage, systemMessage, toolResultMessage, userMessage } from "../../llm/index.js";
import { toAgentPrompt, traceFromSteps } from "./index.js";

const usage = { inputTokens: 4, outputTokens: 2, totalTokens: 6 } as never;

describe("messages between the library and the AI SDK's tool loop", () => {
  test("system messages become the system text; earlier tool calls and results keep their structure", () => {
    const prompt = toAgentPrompt([
      systemMessage("Be brief."),
      systemMessage("Use tools."),
      userMessage("Target?"),
      assistantMessage("Looking.", [{ id: "c1", name: "search", input: { q: "venetoclax" } }]),
      toolResultMessage("c1", "no results", true),
      userMessage("Try again."),
    ]);
    expect(prompt.system).toBe("Be brief.\n\nUse tools.");
    expect(prompt.messages).toEqual([
      { role: "user", content: "Target?" },
      {
        role: "assistant",
        content: [
          { type: "text", text: "Looking." },
          { type: "tool-call", toolCallId: "c1", toolName: "search", input: { q: "venetoclax" } },
        ],
      },
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "c1",
            toolName: "search",
            output: { type: "error-text", value: "no results" },
          },
        ],
      },
      { role: "user", content: "Try again." },
    ]);
  });

  test("a step's reasoning, text and calls form one assistant message; outputs that are not text become JSON", () => {
    const trace = traceFromSteps(
      [
        {
          content: [
            { type: "reasoning", text: "I should search." },
            { type: "text", text: "Searching." },
            { type: "tool-call", toolCallId: "c1", toolName: "search", input: { q: "x" } },
            {
              type: "tool-result",
              toolCallId: "c1",
              toolName: "search",
              input: { q: "x" },
              output: { hits: 2 },
            },
          ],
          usage,
        },
      ] as never,
      "m",
    );
    expect(trace.map(({ role, content }) => ({ role, content }))).toEqual([
      {
        role: "assistant",
        content: [
          { type: "thinking", thinking: "I should search." },
          { type: "text", text: "Searching." },
          { type: "tool_use", id: "c1", name: "search", input: { q: "x" } },
        ],
      },
      {
        role: "tool",
        content: [{ type: "tool_result", tool_use_id: "c1", content: '{"hits":2}', is_error: false }],
      },
    ]);
  });
});
