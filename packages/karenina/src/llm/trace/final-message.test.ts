import { describe, expect, test } from "vitest";
import { assistantMessage, toolResultMessage, userMessage } from "../messages.js";
import { extractFinalAiMessage, prepareEvaluationInput, renderRawTrace } from "./index.js";

const toolCall = { id: "c1", name: "search", input: { q: "x" } };
const onlyToolCalls = [userMessage("Q?"), assistantMessage("", [toolCall])];
const agentTrace = [
  userMessage("Q?"),
  assistantMessage("Looking.", [toolCall]),
  toolResultMessage("c1", "BCL2"),
  assistantMessage("  The target is BCL2.  "),
];

describe("final AI message from messages", () => {
  test("is the last assistant message's text, trimmed", () => {
    expect(extractFinalAiMessage(agentTrace)).toEqual({ ok: true, text: "The target is BCL2." });
  });

  test("fails with the original's messages", () => {
    expect(extractFinalAiMessage([])).toEqual({ ok: false, error: "Empty message list" });
    expect(extractFinalAiMessage(agentTrace.slice(0, 3))).toEqual({
      ok: false,
      error: "Last message in trace is not an AI message",
    });
    expect(extractFinalAiMessage(onlyToolCalls)).toEqual({
      ok: false,
      error: "Final AI message has no text content (only tool calls)",
    });
  });
});

describe("final AI message from a raw trace", () => {
  test("is the text of the last AI block, without its tool calls", () => {
    expect(extractFinalAiMessage(renderRawTrace(agentTrace))).toEqual({
      ok: true,
      text: "The target is BCL2.",
    });
    expect(extractFinalAiMessage("--- AI Message ---\nAlmost done.\nTool Calls:\n  search (call_1)")).toEqual(
      {
        ok: true,
        text: "Almost done.",
      },
    );
  });

  test("a text without block headers is a plain answer, returned whole", () => {
    expect(extractFinalAiMessage("Just BCL2.\n--- not a header")).toEqual({
      ok: true,
      text: "Just BCL2.\n--- not a header",
    });
  });

  test("fails on blank text, a last block that is not an AI block, or an AI block with only tool calls", () => {
    expect(extractFinalAiMessage(" \n ")).toEqual({ ok: false, error: "Empty or whitespace-only trace" });
    expect(extractFinalAiMessage(renderRawTrace(agentTrace.slice(0, 3)))).toEqual({
      ok: false,
      error: "Last message in trace is not an AI message",
    });
    expect(extractFinalAiMessage("--- Thinking ---\nhmm")).toEqual({
      ok: false,
      error: "Last message in trace is not an AI message",
    });
    expect(extractFinalAiMessage(renderRawTrace(onlyToolCalls))).toEqual({
      ok: false,
      error: "Final AI message has no text content (only tool calls)",
    });
  });
});

describe("evaluation input", () => {
  test("with the full trace, messages are rendered as the raw trace", () => {
    expect(prepareEvaluationInput(agentTrace, true)).toEqual({
      text: renderRawTrace(agentTrace),
      error: null,
    });
    expect(prepareEvaluationInput("raw text", true)).toEqual({ text: "raw text", error: null });
  });

  test("otherwise the final message, or the full text with the reason it could not be extracted", () => {
    expect(prepareEvaluationInput(agentTrace, false)).toEqual({ text: "The target is BCL2.", error: null });
    const trace = renderRawTrace(agentTrace.slice(0, 3));
    expect(prepareEvaluationInput(trace, false)).toEqual({
      text: trace,
      error: "Failed to extract final AI message: Last message in trace is not an AI message",
    });
  });
});
