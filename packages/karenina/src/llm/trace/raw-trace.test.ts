import { describe, expect, test } from "vitest";
import {
  assistantMessage,
  type Message,
  systemMessage,
  toolResultMessage,
  userMessage,
} from "../messages.js";
import { renderRawTrace } from "./index.js";

describe("raw trace text", () => {
  test("an LLM answer is a single AI block", () => {
    expect(renderRawTrace([userMessage("Q?"), assistantMessage("BCL2")])).toBe("--- AI Message ---\nBCL2");
  });

  test("tool calls list name, id and Python-literal args; results follow as tool blocks", () => {
    const messages: Message[] = [
      systemMessage("sys"),
      userMessage("Q?"),
      assistantMessage("Let me check.", [
        { id: "a1", name: "search", input: { query: "it's BCL2", limit: 3, exact: true } },
        { id: "a2", name: "list_files", input: {} },
      ]),
      toolResultMessage("a1", "BCL2 is an oncogene"),
      toolResultMessage("a2", "permission denied", true),
      assistantMessage("It targets BCL2."),
    ];
    expect(renderRawTrace(messages)).toBe(
      [
        "--- AI Message ---",
        "Let me check.",
        "Tool Calls:",
        "  search (call_a1)",
        "   Call ID: a1",
        `   Args: {'query': "it's BCL2", 'limit': 3, 'exact': True}`,
        "  list_files (call_a2)",
        "   Call ID: a2",
        "",
        "--- Tool Message (call_id: a1) ---",
        "BCL2 is an oncogene",
        "",
        "--- Tool Message (call_id: a2) ---",
        "[ERROR] permission denied",
        "",
        "--- AI Message ---",
        "It targets BCL2.",
      ].join("\n"),
    );
  });

  test("thinking comes as its own block before the AI block; an empty assistant message gives no AI block", () => {
    const messages: Message[] = [
      { role: "assistant", content: [{ type: "thinking", thinking: "hmm" }] },
      {
        role: "assistant",
        content: [
          { type: "thinking", thinking: "so" },
          { type: "text", text: "Done." },
        ],
      },
      assistantMessage(""),
    ];
    expect(renderRawTrace(messages)).toBe(
      "--- Thinking ---\nhmm\n\n--- Thinking ---\nso\n\n--- AI Message ---\nDone.",
    );
  });

  test("user and system messages are left out", () => {
    expect(renderRawTrace([systemMessage("s"), userMessage("u")])).toBe("");
  });
});
