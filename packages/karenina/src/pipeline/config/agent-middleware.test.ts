/**
 * `agent_middleware` read as the original reads it (spec 04 §3, spec 05 §5.1), and its effect on a whole run:
 * an answering agent whose model fails for good leaves the placeholder message that fails the task as a
 * connection failure (spec 04 §5.5). The model answers from the scripted OpenAI-compatible server and the tools
 * from an MCP server over streamable HTTP, both on 127.0.0.1; every reply is hand-written test data.
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { describe, expect, test } from "vitest";
import { mcpHttpServerPerTest } from "../../test-support/mcp-http-server.js";
import { startOpenAiServer } from "../../test-support/openai-server/index.js";
import { endpointModel, runPipeline, scriptedPipeline } from "../../test-support/pipeline-context.js";
import { serverPerTest } from "../../test-support/server-per-test.js";
import { agentMiddlewareFor, languageModelFor, ModelConfigSchema, parseVerificationConfig } from "./index.js";

const { geneToolsServer } = (await import(
  new URL("../../agentic/mcp/__fixtures__/gene-tools.mjs", import.meta.url).href
)) as { geneToolsServer: (name: string, calls: unknown[]) => McpServer };

const server = serverPerTest(startOpenAiServer);
const startMcp = mcpHttpServerPerTest();

const model = (fields: Record<string, unknown> = {}) =>
  ModelConfigSchema.parse({ ...endpointModel("http://127.0.0.1:9/v1", "agent-model"), ...fields });

function middlewareOf(fields: Record<string, unknown> = {}) {
  const config = model(fields);
  return agentMiddlewareFor(config, languageModelFor(config, { env: {} }), {});
}

describe("agent_middleware as the original reads it", () => {
  test("without settings: the original's defaults", () => {
    const middleware = middlewareOf();
    expect(middleware).toMatchObject({
      toolCallLimit: 50,
      toolLimitExceeded: "refuse",
      modelRetry: { maxRetries: 2, backoffFactor: 2, initialDelayMs: 2000, maxDelayMs: 10_000, jitter: true },
      toolRetry: { maxRetries: 3, backoffFactor: 2, initialDelayMs: 1000, onFailure: "return_message" },
      summarization: { triggerTokens: 80_000, keepMessages: 20 },
    });
    expect(middleware.modelRetry.onFailure).toBe("continue");
  });

  test("the summarisation trigger: trigger_tokens, else max_context_tokens, else trigger_fraction of 100 000", () => {
    expect(
      middlewareOf({ agent_middleware: { summarization: { trigger_fraction: 0.5 } } }).summarization,
    ).toMatchObject({ triggerTokens: 50_000 });
    expect(middlewareOf({ max_context_tokens: 32_000 }).summarization).toMatchObject({
      triggerTokens: 32_000,
    });
    expect(
      middlewareOf({
        max_context_tokens: 32_000,
        agent_middleware: { summarization: { trigger_tokens: 900 } },
      }).summarization,
    ).toMatchObject({ triggerTokens: 900 });
    expect(
      middlewareOf({ agent_middleware: { summarization: { enabled: false } } }).summarization,
    ).toBeNull();
  });

  test("summarization.model names another model at the agent's endpoint", () => {
    const summarizer = middlewareOf({
      agent_middleware: { summarization: { model: "small-model" } },
    }).summarization;
    expect(summarizer?.model.modelName).toBe("small-model");
    expect(middlewareOf().summarization?.model.modelName).toBe("agent-model");
  });

  test("exit_behavior continue makes a call beyond the tool limit an error, as in the original", () => {
    expect(
      middlewareOf({ agent_middleware: { limits: { exit_behavior: "continue" } } }).toolLimitExceeded,
    ).toBe("error");
  });

  test("a config with an invalid agent_middleware is refused, naming the field", () => {
    expect(() =>
      parseVerificationConfig({
        answering_models: [
          {
            ...endpointModel("http://127.0.0.1:9/v1", "a"),
            agent_middleware: { model_retry: { on_failure: "retry" } },
          },
        ],
        parsing_models: [endpointModel("http://127.0.0.1:9/v1", "j")],
      }),
    ).toThrow(/agent_middleware\.model_retry\.on_failure/);
  });
});

describe("an answering agent whose model fails for good", () => {
  test("model_retry on_failure continue: the placeholder ends the trace and the task fails as connection", async () => {
    const url = await startMcp(() => geneToolsServer("genes", []));
    server.script({
      match: { model: "answerer" },
      reply: { status: 500, message: "scripted outage" },
      repeat: true,
    });
    const { contextFor } = scriptedPipeline(server);
    const result = await runPipeline(
      contextFor({
        answering_models: [
          {
            ...endpointModel(server.baseURL, "answerer"),
            mcp_urls_dict: { genes: url },
            agent_middleware: { model_retry: { max_retries: 0 } },
          },
        ],
      }),
    );
    expect(server.requests.filter((r) => r.body.model === "answerer")).toHaveLength(1);
    expect(result.template?.raw_llm_response).toContain(
      "Model call failed after 1 attempt with LlmCallError: LLM call to answerer failed with HTTP 500",
    );
    expect(result.template?.verify_result).toBe(false);
    expect(result.metadata.failure).toMatchObject({
      category: "connection",
      reason: "auto-fail at stage PlaceholderRetryAutoFail",
    });
  });
});
