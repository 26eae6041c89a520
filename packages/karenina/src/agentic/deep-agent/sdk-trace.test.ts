/** Claude Code stream frames (hand-written) to the trace. */
import { expect, test } from "vitest";
import { traceFromSdkMessages } from "./index.js";

test("sub-agent frames stay out of the trace; a new API message starts a new assistant message", () => {
  const run = traceFromSdkMessages([
    { type: "system", subtype: "init", model: "claude-x" },
    {
      type: "assistant",
      parent_tool_use_id: null,
      message: {
        id: "a",
        content: [{ type: "tool_use", id: "t1", name: "Task", input: { prompt: "look" } }],
      },
    },
    {
      type: "assistant",
      parent_tool_use_id: "t1",
      message: { id: "sub", content: [{ type: "text", text: "sub-agent work" }] },
    },
    {
      type: "user",
      parent_tool_use_id: "t1",
      message: { content: [{ type: "tool_result", tool_use_id: "s1", content: "inner" }] },
    },
    {
      type: "user",
      parent_tool_use_id: null,
      message: {
        content: [
          {
            type: "tool_result",
            tool_use_id: "t1",
            content: [{ type: "text", text: "found it" }],
            is_error: false,
          },
        ],
      },
    },
    {
      type: "assistant",
      parent_tool_use_id: null,
      message: { id: "b", content: [{ type: "thinking", thinking: "done", signature: "sig" }] },
    },
    {
      type: "assistant",
      parent_tool_use_id: null,
      message: { id: "b", content: [{ type: "text", text: "Answer." }] },
    },
  ]);
  expect(run.trace.map(({ role, content }) => ({ role, content }))).toEqual([
    { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "Task", input: { prompt: "look" } }] },
    {
      role: "tool",
      content: [{ type: "tool_result", tool_use_id: "t1", content: "found it", is_error: false }],
    },
    {
      role: "assistant",
      content: [
        { type: "thinking", thinking: "done", signature: "sig" },
        { type: "text", text: "Answer." },
      ],
    },
  ]);
  expect(run).toMatchObject({ result: null, actualModel: "claude-x", usage: { total_tokens: 0 } });
});
