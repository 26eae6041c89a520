import { expect, test } from "vitest";
import { assistantMessage, toolResultMessage, userMessage } from "../messages.js";
import { agentMetrics, looksLikeToolFailure } from "./index.js";

test("metrics count assistant turns, tool calls by name and suspect results", () => {
  const messages = [
    userMessage("Q?"),
    assistantMessage("", [
      { id: "1", name: "search", input: { q: "a" } },
      { id: "2", name: "fetch", input: { url: "u" } },
    ]),
    toolResultMessage("1", "three hits"),
    toolResultMessage("2", "ok", true),
    assistantMessage("", [{ id: "3", name: "search", input: { q: "b" } }]),
    toolResultMessage("3", "HTTP 503 Service Unavailable"),
    assistantMessage("Answer."),
  ];
  expect(agentMetrics(messages, true)).toEqual({
    iterations: 3,
    tool_calls: 3,
    tools_used: ["fetch", "search"],
    tool_call_counts: { search: 2, fetch: 1 },
    suspect_failed_tool_calls: 2,
    suspect_failed_tools: ["fetch", "search"],
    limit_reached: true,
  });
});

test("tool_calls is the larger of calls and results", () => {
  const messages = [toolResultMessage("x", "a"), toolResultMessage("y", "b"), assistantMessage("done")];
  expect(agentMetrics(messages, false)).toMatchObject({ iterations: 1, tool_calls: 2, tools_used: [] });
});

test("failure words match whole words, case-insensitively, including the multi-word ones", () => {
  for (const text of [
    "Error: boom",
    "request FAILED",
    "Traceback (most recent call last)",
    "stack  trace follows",
    "status 500",
    "Timeout after 30s",
    "invalid argument",
    "401 Unauthorized",
    "Forbidden",
    "file not found",
    "I cannot open it",
    "Unable to connect",
    "raised an exception",
  ]) {
    expect(looksLikeToolFailure(text), text).toBe(true);
  }
  for (const text of ["errors", "5000 rows", "notfound", "the found items", "timeouts"]) {
    expect(looksLikeToolFailure(text), text).toBe(false);
  }
});
