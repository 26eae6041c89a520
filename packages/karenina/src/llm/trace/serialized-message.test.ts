import { describe, expect, test } from "vitest";
import { thrown } from "../../test-support/thrown.js";
import { assistantMessage, systemMessage, toolResultMessage, userMessage } from "../messages.js";
import { deserializeMessages, serializeMessages, type TraceMessage, TraceRecordError } from "./index.js";

// A hand-written agent conversation.
const conversation: TraceMessage[] = [
  systemMessage("You are an expert."),
  userMessage("What does venetoclax target?"),
  {
    role: "assistant",
    content: [
      { type: "thinking", thinking: "I should search.", signature: "sig-1" },
      { type: "text", text: "Searching." },
      { type: "tool_use", id: "t1", name: "search", input: { query: "venetoclax target" } },
    ],
    usage_metadata: { input_tokens: 12, output_tokens: 5, total_tokens: 17 },
  },
  toolResultMessage("t1", "BCL2 inhibitor", false),
  toolResultMessage("t2", "timeout", true),
  assistantMessage("Venetoclax targets BCL2."),
];

describe("serialized messages (toDict form)", () => {
  test("each message becomes {role, content, block_index, ...} with optional keys only when present", () => {
    expect(serializeMessages(conversation)).toEqual([
      { role: "system", content: "You are an expert.", block_index: 0 },
      { role: "user", content: "What does venetoclax target?", block_index: 1 },
      {
        role: "assistant",
        content: "Searching.",
        block_index: 2,
        tool_calls: [{ id: "t1", name: "search", input: { query: "venetoclax target" } }],
        thinking: { thinking: "I should search.", signature: "sig-1" },
        usage_metadata: { input_tokens: 12, output_tokens: 5, total_tokens: 17 },
      },
      {
        role: "tool",
        content: "BCL2 inhibitor",
        block_index: 3,
        tool_result: { tool_use_id: "t1", is_error: false },
      },
      {
        role: "tool",
        content: "timeout",
        block_index: 4,
        tool_result: { tool_use_id: "t2", is_error: true },
      },
      { role: "assistant", content: "Venetoclax targets BCL2.", block_index: 5 },
    ]);
  });

  test("keys come in the original's order", () => {
    const [, , assistant] = serializeMessages(conversation);
    expect(Object.keys(assistant ?? {})).toEqual([
      "role",
      "content",
      "block_index",
      "tool_calls",
      "thinking",
      "usage_metadata",
    ]);
  });

  test("serializing then deserializing gives the same messages back", () => {
    expect(deserializeMessages(serializeMessages(conversation))).toEqual(conversation);
  });

  test("a tool message's content becomes its tool result, not also a text block", () => {
    const [tool] = deserializeMessages([
      { role: "tool", content: "found", tool_result: { tool_use_id: "t1", is_error: false } },
    ]);
    expect(tool?.content).toEqual([
      { type: "tool_result", tool_use_id: "t1", content: "found", is_error: false },
    ]);
  });

  test("records written by the original (nulls, missing block_index, extra keys) are read", () => {
    const [message] = deserializeMessages([
      { role: "assistant", content: "Hi", tool_calls: null, thinking: null, usage_metadata: null, extra: 1 },
    ]);
    expect(message).toEqual({ role: "assistant", content: [{ type: "text", text: "Hi" }] });
  });

  test("an invalid record is reported with its index and field", () => {
    const error = thrown(TraceRecordError, () =>
      deserializeMessages([
        { role: "user", content: "ok" },
        { role: "assistant", content: "x", tool_calls: [{ id: "t1", name: 3 }] },
      ]),
    );
    expect(error.index).toBe(1);
    expect(error.message).toBe(
      "invalid trace message record: [1].tool_calls[0].name: expected string, found the number 3",
    );
  });

  test("an unknown role is refused", () => {
    expect(
      thrown(TraceRecordError, () => deserializeMessages([{ role: "human", content: "x" }])).message,
    ).toContain("[0].role:");
  });
});
