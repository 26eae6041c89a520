/**
 * The tool-loop agent over real HTTP, against the scripted OpenAI-compatible server. Every model turn below
 * is a hand-written reply, not the output of a real model.
 */
import { tool } from "ai";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import {
  deserializeMessages,
  extractFinalAiMessage,
  LlmAbortedError,
  LlmCallError,
  openAiEndpointModel,
  renderRawTrace,
  serializeMessages,
  systemMessage,
  userMessage,
} from "../../llm/index.js";
import { startOpenAiServer } from "../../test-support/openai-server/index.js";
import { serverPerTest } from "../../test-support/server-per-test.js";
import { toolLoopAgent } from "./index.js";

const server = serverPerTest(startOpenAiServer);
const model = () =>
  openAiEndpointModel({ baseURL: server.url, apiKey: "sk-agent", modelName: "agent-model" });

const lookups: string[] = [];
const lookupGene = tool({
  description: "Look up the target of a drug",
  inputSchema: z.object({ drug: z.string() }),
  execute: async ({ drug }) => {
    lookups.push(drug);
    return drug === "venetoclax" ? "BCL2" : "unknown";
  },
});

const QUESTION = [systemMessage("Use the tools."), userMessage("What is the target of venetoclax?")];

describe("tool_loop agent", () => {
  test("seed 002 §1 the AgentPort keeps the full conversation: tool call, tool result, final answer, in order", async () => {
    server.script(
      {
        reply: {
          text: "Let me look it up.",
          toolCalls: [{ id: "c1", name: "lookup_gene", arguments: { drug: "venetoclax" } }],
          usage: { prompt_tokens: 20, completion_tokens: 5 },
        },
      },
      { reply: { text: "The target is BCL2.", usage: { prompt_tokens: 30, completion_tokens: 6 } } },
    );
    lookups.length = 0;
    const result = await toolLoopAgent(model(), { maxRetries: 0 }).run(QUESTION, {
      tools: { lookup_gene: lookupGene },
    });

    expect(lookups).toEqual(["venetoclax"]);
    expect(result.traceMessages.map(({ role, content }) => ({ role, content }))).toEqual([
      {
        role: "assistant",
        content: [
          { type: "text", text: "Let me look it up." },
          { type: "tool_use", id: "c1", name: "lookup_gene", input: { drug: "venetoclax" } },
        ],
      },
      {
        role: "tool",
        content: [{ type: "tool_result", tool_use_id: "c1", content: "BCL2", is_error: false }],
      },
      { role: "assistant", content: [{ type: "text", text: "The target is BCL2." }] },
    ]);
    expect(result.traceMessages[0]?.usage_metadata).toMatchObject({ input_tokens: 20, output_tokens: 5 });
    expect(result.usage).toEqual({
      input_tokens: 50,
      output_tokens: 11,
      total_tokens: 61,
      model: "agent-model",
    });
    expect(result).toMatchObject({
      finalResponse: "The target is BCL2.",
      turns: 2,
      limitReached: false,
      timeoutReached: false,
      usageUnavailable: false,
    });
    expect(result.rawTrace).toBe(
      [
        "--- AI Message ---\nLet me look it up.\nTool Calls:\n  lookup_gene (call_c1)\n   Call ID: c1\n   Args: {'drug': 'venetoclax'}",
        "--- Tool Message (call_id: c1) ---\nBCL2",
        "--- AI Message ---\nThe target is BCL2.",
      ].join("\n\n"),
    );
    expect(result.metrics).toMatchObject({
      iterations: 2,
      tool_calls: 1,
      tools_used: ["lookup_gene"],
      limit_reached: false,
    });
    expect(extractFinalAiMessage(result.traceMessages)).toEqual({ ok: true, text: "The target is BCL2." });
    expect(renderRawTrace(deserializeMessages(serializeMessages(result.traceMessages)))).toBe(
      result.rawTrace,
    );
  });

  test("the model sees the tools and, on the second turn, its tool call and the result", async () => {
    server.script(
      { reply: { toolCalls: [{ id: "c1", name: "lookup_gene", arguments: { drug: "venetoclax" } }] } },
      { reply: { text: "BCL2." } },
    );
    await toolLoopAgent(model(), { maxRetries: 0 }).run(QUESTION, { tools: { lookup_gene: lookupGene } });
    const [first, second] = server.requests;
    expect(
      ((first?.body.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name),
    ).toEqual(["lookup_gene"]);
    expect(first?.body.messages).toEqual([
      { role: "system", content: "Use the tools." },
      { role: "user", content: "What is the target of venetoclax?" },
    ]);
    expect(((second?.body.messages ?? []) as { role: string }[]).slice(2)).toMatchObject([
      { role: "assistant", tool_calls: [{ id: "c1", function: { name: "lookup_gene" } }] },
      { role: "tool", tool_call_id: "c1", content: "BCL2" },
    ]);
  });

  test("seed 002 §1 reaching the turn limit is a result with limitReached, not an error", async () => {
    server.script({
      reply: { toolCalls: [{ name: "lookup_gene", arguments: { drug: "imatinib" } }] },
      repeat: true,
    });
    const result = await toolLoopAgent(model(), { maxRetries: 0, maxTurns: 3 }).run(QUESTION, {
      tools: { lookup_gene: lookupGene },
    });
    expect(server.requests).toHaveLength(3);
    expect(result).toMatchObject({ limitReached: true, turns: 3, finalResponse: "" });
    expect(result.metrics).toMatchObject({ limit_reached: true, iterations: 3, tool_calls: 3 });
    expect(result.traceMessages.at(-1)?.role).toBe("tool");
  });

  test("a run that answers on its last allowed turn has not hit the limit", async () => {
    server.script(
      { reply: { toolCalls: [{ name: "lookup_gene", arguments: { drug: "venetoclax" } }] } },
      { reply: { text: "BCL2." } },
    );
    const result = await toolLoopAgent(model(), { maxRetries: 0 }).run(QUESTION, {
      tools: { lookup_gene: lookupGene },
      maxTurns: 2,
    });
    expect(result).toMatchObject({ limitReached: false, turns: 2, finalResponse: "BCL2." });
  });

  test("a tool that throws, or a call to no such tool, gives an error result and the loop goes on", async () => {
    const failing = tool({
      description: "Always fails",
      inputSchema: z.object({}),
      execute: async (): Promise<string> => {
        throw new Error("database offline");
      },
    });
    server.script(
      {
        reply: {
          toolCalls: [
            { id: "a", name: "flaky", arguments: {} },
            { id: "b", name: "no_such_tool", arguments: {} },
          ],
        },
      },
      { reply: { text: "I could not find out." } },
    );
    const result = await toolLoopAgent(model(), { maxRetries: 0 }).run(QUESTION, {
      tools: { flaky: failing },
    });
    expect(result.traceMessages.slice(1, 3)).toMatchObject([
      { role: "tool", content: [{ tool_use_id: "a", content: "database offline", is_error: true }] },
      { role: "tool", content: [{ tool_use_id: "b", is_error: true }] },
    ]);
    expect(result.metrics.suspect_failed_tools).toEqual(["flaky", "no_such_tool"]);
    expect(result.finalResponse).toBe("I could not find out.");
  });

  test("the wall-clock limit ends the run with the turns completed so far", async () => {
    server.script(
      { reply: { toolCalls: [{ id: "c1", name: "lookup_gene", arguments: { drug: "venetoclax" } }] } },
      { reply: { text: "too late", delayMs: 10_000 } },
    );
    const result = await toolLoopAgent(model(), { maxRetries: 0 }).run(QUESTION, {
      tools: { lookup_gene: lookupGene },
      timeoutMs: 500,
    });
    expect(result).toMatchObject({ timeoutReached: true, limitReached: false, turns: 1 });
    expect(result.traceMessages.map((m) => m.role)).toEqual(["assistant", "tool"]);
  });

  test("an abort throws LlmAbortedError", async () => {
    server.script({ reply: { text: "never", delayMs: 10_000 } });
    const controller = new AbortController();
    const run = toolLoopAgent(model(), { maxRetries: 0 }).run(QUESTION, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(run).rejects.toBeInstanceOf(LlmAbortedError);
  });

  test("a provider error is thrown as a port error the retry policy can classify", async () => {
    server.script({ reply: { status: 503, message: "overloaded" } });
    const error = await toolLoopAgent(model(), { maxRetries: 0 })
      .run(QUESTION)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmCallError);
    expect(error).toMatchObject({ statusCode: 503, category: "server_error" });
  });
});
