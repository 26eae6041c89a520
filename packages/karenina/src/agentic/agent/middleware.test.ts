/**
 * The tool loop's middleware (spec 05 §5.1, §10; the original's LangChain agent middleware): model-call and
 * tool-call retries, the tool-call limit and the summarisation of long conversations. The model answers from
 * the scripted OpenAI-compatible server on 127.0.0.1 and the tools from an MCP server over streamable HTTP on
 * 127.0.0.1, both started by the test; every model turn and tool answer is hand-written test data.
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import {
  LlmCallError,
  type McpAttachment,
  messageText,
  openAiEndpointModel,
  systemMessage,
  userMessage,
} from "../../llm/index.js";
import { mcpHttpServerPerTest } from "../../test-support/mcp-http-server.js";
import { startOpenAiServer } from "../../test-support/openai-server/index.js";
import { serverPerTest } from "../../test-support/server-per-test.js";
import { AgentExecutionError } from "./errors.js";
import type { AgentMiddleware } from "./middleware.js";
import { toolLoopAgent } from "./tool-loop-agent.js";
import { SUMMARY_HEADING } from "./trace-summarizer.js";

const llm = serverPerTest(startOpenAiServer);
const QUESTION = [userMessage("What is the target of venetoclax?")];

const startMcp = mcpHttpServerPerTest();

/** An MCP server whose `flaky_lookup` fails `failures` times before answering, and whose `broken` always fails. */
async function mcpTools(failures: number): Promise<{ mcp: McpAttachment; calls: string[] }> {
  const calls: string[] = [];
  let failuresLeft = failures;
  const url = await startMcp(() => {
    const mcp = new McpServer({ name: "genes", version: "1.0.0" });
    mcp.registerTool(
      "flaky_lookup",
      { description: "Look up a gene", inputSchema: { drug: z.string() } },
      async () => {
        calls.push("flaky_lookup");
        if (failuresLeft-- > 0) return { isError: true, content: [{ type: "text", text: "backend busy" }] };
        return { content: [{ type: "text", text: "BCL2" }] };
      },
    );
    mcp.registerTool("broken", { description: "A tool whose backend is down", inputSchema: {} }, async () => {
      calls.push("broken");
      return { isError: true, content: [{ type: "text", text: "database offline" }] };
    });
    return mcp;
  });
  return { mcp: { servers: { genes: { type: "http", url } } }, calls };
}

const target = () => openAiEndpointModel({ baseURL: llm.url, apiKey: "k", modelName: "m" });

/** The original's defaults, without jitter, waits recorded instead of slept. */
function middleware(waits: number[], overrides: Partial<AgentMiddleware> = {}): AgentMiddleware {
  return {
    toolCallLimit: 50,
    toolLimitExceeded: "refuse",
    modelRetry: {
      maxRetries: 2,
      backoffFactor: 2,
      initialDelayMs: 2000,
      maxDelayMs: 10_000,
      jitter: false,
      onFailure: "continue",
    },
    toolRetry: {
      maxRetries: 3,
      backoffFactor: 2,
      initialDelayMs: 1000,
      maxDelayMs: 60_000,
      jitter: false,
      onFailure: "return_message",
    },
    summarization: null,
    sleep: async (ms) => {
      waits.push(ms);
    },
    ...overrides,
  };
}

const toolCall = (name: string, args: Record<string, unknown> = {}) => ({
  reply: { toolCalls: [{ name, arguments: args }] },
});

describe("model-call retries", () => {
  test("a failing model call is retried with exponential backoff and the run goes on", async () => {
    llm.script({ reply: { status: 500 } }, { reply: { status: 503 } }, { reply: { text: "BCL2." } });
    const waits: number[] = [];
    const result = await toolLoopAgent(target(), { middleware: middleware(waits) }).run(QUESTION);
    expect(result.finalResponse).toBe("BCL2.");
    expect(llm.requests).toHaveLength(3);
    expect(waits).toEqual([2000, 4000]);
  });

  test("on_failure continue: the run ends with the placeholder message the pipeline's guard catches", async () => {
    llm.script({ reply: { status: 500, message: "scripted outage" }, repeat: true });
    const waits: number[] = [];
    const result = await toolLoopAgent(target(), { middleware: middleware(waits) }).run(QUESTION);
    expect(llm.requests).toHaveLength(3);
    expect(result.finalResponse).toMatch(
      /^Model call failed after 3 attempts with LlmCallError: LLM call to m failed with HTTP 500: scripted outage/,
    );
    expect(result.traceMessages.at(-1)?.role).toBe("assistant");
  });

  test("on_failure raise: the error of the last attempt is thrown", async () => {
    llm.script({ reply: { status: 500 }, repeat: true });
    const run = toolLoopAgent(target(), {
      middleware: middleware([], {
        modelRetry: { ...middleware([]).modelRetry, maxRetries: 1, onFailure: "raise" },
      }),
    }).run(QUESTION);
    await expect(run).rejects.toBeInstanceOf(LlmCallError);
    expect(llm.requests).toHaveLength(2);
  });
});

describe("tool-call retries (MCP tools)", () => {
  test("a failing tool is called again with backoff until it answers", async () => {
    const { mcp, calls } = await mcpTools(2);
    llm.script(toolCall("flaky_lookup", { drug: "venetoclax" }), { reply: { text: "BCL2." } });
    const waits: number[] = [];
    const result = await toolLoopAgent(target(), { middleware: middleware(waits) }).run(QUESTION, { mcp });
    expect(calls).toEqual(["flaky_lookup", "flaky_lookup", "flaky_lookup"]);
    expect(waits).toEqual([1000, 2000]);
    expect(result.traceMessages[1]).toMatchObject({
      role: "tool",
      content: [{ type: "tool_result", content: "BCL2", is_error: false }],
    });
  });

  test("return_message: after the last retry the model is told the tool failed, and the run goes on", async () => {
    const { mcp, calls } = await mcpTools(0);
    llm.script(toolCall("broken"), { reply: { text: "The database is offline." } });
    const waits: number[] = [];
    const result = await toolLoopAgent(target(), { middleware: middleware(waits) }).run(QUESTION, { mcp });
    expect(calls).toHaveLength(4);
    expect(waits).toEqual([1000, 2000, 4000]);
    expect(result.traceMessages[1]).toMatchObject({
      role: "tool",
      content: [
        {
          type: "tool_result",
          content:
            "Tool 'broken' failed after 4 attempts with McpToolError: database offline. Please try again.",
          is_error: true,
        },
      ],
    });
    expect(result.finalResponse).toBe("The database is offline.");
  });

  test("raise: the run ends with an AgentExecutionError", async () => {
    const { mcp } = await mcpTools(0);
    llm.script(toolCall("broken"), { reply: { text: "never asked" } });
    const tools = middleware([]).toolRetry;
    const run = toolLoopAgent(target(), {
      middleware: middleware([], { toolRetry: { ...tools, maxRetries: 0, onFailure: "raise" } }),
    }).run(QUESTION, { mcp });
    await expect(run).rejects.toThrow(AgentExecutionError);
    await expect(run).rejects.toThrow(/database offline/);
    expect(llm.requests).toHaveLength(1);
  });
});

describe("the tool-call limit", () => {
  test("exit_behavior end: calls beyond the limit are refused with a message, the tool does not run", async () => {
    const { mcp, calls } = await mcpTools(0);
    llm.script(
      toolCall("flaky_lookup", { drug: "venetoclax" }),
      toolCall("flaky_lookup", { drug: "navitoclax" }),
      { reply: { text: "BCL2." } },
    );
    const result = await toolLoopAgent(target(), {
      middleware: middleware([], { toolCallLimit: 1 }),
    }).run(QUESTION, { mcp });
    expect(calls).toEqual(["flaky_lookup"]);
    expect(result.traceMessages[3]).toMatchObject({
      role: "tool",
      content: [
        {
          type: "tool_result",
          content: "Tool call limit exceeded. Do not make additional tool calls.",
          is_error: true,
        },
      ],
    });
    expect(result.finalResponse).toBe("BCL2.");
  });

  test("exit_behavior continue: a call beyond the limit ends the run with an error", async () => {
    const { mcp } = await mcpTools(0);
    llm.script(toolCall("flaky_lookup", { drug: "a" }), toolCall("flaky_lookup", { drug: "b" }), {
      reply: { text: "never asked" },
    });
    const run = toolLoopAgent(target(), {
      middleware: middleware([], { toolCallLimit: 1, toolLimitExceeded: "error" }),
    }).run(QUESTION, { mcp });
    await expect(run).rejects.toThrow(/Tool call limit exceeded: the run made more than 1 tool calls/);
    expect(llm.requests).toHaveLength(2);
  });
});

describe("summarisation of a long conversation", () => {
  test("past the trigger, older messages are replaced by a summary the model writes; the trace keeps every step", async () => {
    const { mcp } = await mcpTools(0);
    const longAnswer = "x".repeat(400);
    llm.script(
      {
        match: { model: "m", lastUserIncludes: "venetoclax" },
        ...toolCall("flaky_lookup", { drug: longAnswer }),
      },
      {
        match: { lastUserIncludes: "CONVERSATION TO SUMMARIZE" },
        reply: { text: "Asked for the target; looked it up." },
      },
      { match: { lastUserIncludes: SUMMARY_HEADING }, reply: { text: "BCL2." } },
    );
    const result = await toolLoopAgent(target(), {
      middleware: middleware([], {
        summarization: { triggerTokens: 100, keepMessages: 2, model: target() },
      }),
    }).run([systemMessage("You are a pharmacologist."), ...QUESTION], { mcp });

    const summaryRequest = llm.requests[1]?.body.messages as { role: string; content: string }[];
    expect(summaryRequest).toHaveLength(1);
    expect(summaryRequest[0]?.content).toContain("ORIGINAL QUESTION: What is the target of venetoclax?");
    expect(summaryRequest[0]?.content).toContain("HumanMessage: What is the target of venetoclax?");

    // The step after the summary: the system prompt, the summary, then the kept tool call and its result.
    const last = llm.requests[2]?.body.messages as { role: string; content: unknown }[];
    expect(last.map((message) => message.role)).toEqual(["system", "user", "assistant", "tool"]);
    expect(last[1]?.content).toBe(`${SUMMARY_HEADING}Asked for the target; looked it up.`);
    expect(JSON.stringify(last)).not.toContain("What is the target of venetoclax?");

    expect(result.finalResponse).toBe("BCL2.");
    expect(result.traceMessages.map((message) => message.role)).toEqual(["assistant", "tool", "assistant"]);
    // The summary call's tokens count in the run's usage (7 completion tokens per scripted call, 3 calls).
    expect(result.usage.output_tokens).toBe(21);
    expect(messageText(result.traceMessages[2] as never)).toBe("BCL2.");
  });

  test("below the trigger nothing is summarised", async () => {
    llm.script({ reply: { text: "BCL2." } });
    const result = await toolLoopAgent(target(), {
      middleware: middleware([], {
        summarization: { triggerTokens: 10_000, keepMessages: 1, model: target() },
      }),
    }).run(QUESTION);
    expect(result.finalResponse).toBe("BCL2.");
    expect(llm.requests).toHaveLength(1);
  });
});
