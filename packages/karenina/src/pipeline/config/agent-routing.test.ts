/** Which port answers for a model (seed 002 §1), and the agents the routing builds (hand-written model turns). */
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { McpSpecError } from "../../agentic/index.js";
import { AdapterUnavailableError, userMessage } from "../../llm/index.js";
import { startOpenAiServer } from "../../test-support/openai-server/index.js";
import { serverPerTest } from "../../test-support/server-per-test.js";
import { agentPortFor, agentTierFor, ModelConfigSchema, mcpAttachmentFor, usesAgentPort } from "./index.js";

const server = serverPerTest(startOpenAiServer);
const model = (fields: Record<string, unknown>) =>
  ModelConfigSchema.parse({ id: "m", model_name: "some-model", ...fields });
const STDIO_SERVER = fileURLToPath(
  new URL("../../agentic/mcp/__fixtures__/stdio-server.mjs", import.meta.url),
);

describe("seed 002 §1 AdapterSpec.agent_tier and the choice of port", () => {
  test.each([
    ["claude_agent_sdk", "deep_agent"],
    ["langchain_deep_agents", "deep_agent"],
    ["langchain", "tool_loop"],
    ["claude_tool", "tool_loop"],
    ["manual", "tool_loop"],
    ["openai_endpoint", "tool_loop"],
    ["openrouter", "tool_loop"],
    ["openai", "tool_loop"],
  ])("seed 002 §1 %s is a %s adapter", (name, tier) => {
    expect(agentTierFor({ interface: name })).toBe(tier);
  });

  test("seed 002 §1 use_agent = bool(mcp_urls_dict) or agent_tier == deep_agent", () => {
    const mcp = { kb: "http://127.0.0.1:8931/mcp" };
    expect(usesAgentPort({ interface: "openai_endpoint", mcp_urls_dict: null })).toBe(false);
    expect(usesAgentPort({ interface: "openai_endpoint", mcp_urls_dict: {} })).toBe(false);
    expect(usesAgentPort({ interface: "openai_endpoint", mcp_urls_dict: mcp })).toBe(true);
    expect(usesAgentPort({ interface: "langchain", mcp_urls_dict: mcp })).toBe(true);
    expect(usesAgentPort({ interface: "claude_agent_sdk", mcp_urls_dict: null })).toBe(true);
    expect(usesAgentPort({ interface: "langchain_deep_agents", mcp_urls_dict: null })).toBe(true);
    expect(usesAgentPort({ interface: "claude_tool", mcp_urls_dict: null })).toBe(false);
  });
});

describe("agentPortFor", () => {
  test("an openai_endpoint model with MCP servers runs the tool loop with its allow-list and turn limit", async () => {
    server.script({
      reply: { toolCalls: [{ name: "lookup_gene", arguments: { drug: "venetoclax" } }] },
      repeat: true,
    });
    const answering = model({
      interface: "openai_endpoint",
      endpoint_base_url: server.url,
      endpoint_api_key: "sk-local",
      mcp_urls_dict: { genes: `"${process.execPath}" "${STDIO_SERVER}"` },
      mcp_tool_filter: ["lookup_gene"],
      agent_middleware: { limits: { model_call_limit: 2 }, model_retry: { max_retries: 0 } },
    });
    const result = await agentPortFor(answering).run([userMessage("Target of venetoclax?")]);
    expect(server.requests).toHaveLength(2);
    const tools = server.requests[0]?.body.tools as { function: { name: string } }[];
    expect(tools.map((t) => t.function.name)).toEqual(["lookup_gene"]);
    expect(result).toMatchObject({ limitReached: true, turns: 2 });
    expect(result.traceMessages[1]?.content[0]).toMatchObject({ content: "BCL2 (from stdio-genes)" });
  });

  test("a model's MCP settings become the attachment: servers, filter, overrides and timeouts in ms", () => {
    const attachment = mcpAttachmentFor(
      model({
        interface: "openai_endpoint",
        mcp_urls_dict: { kb: "http://127.0.0.1:1/mcp", fs: "npx -y files-server" },
        mcp_tool_filter: ["search"],
        mcp_tool_description_overrides: { search: "Search the KB" },
        mcp_http_timeout: 5,
        mcp_sse_read_timeout: 60,
      }),
    );
    expect(attachment).toEqual({
      servers: {
        kb: { type: "http", url: "http://127.0.0.1:1/mcp" },
        fs: { type: "stdio", command: "npx", args: ["-y", "files-server"] },
      },
      toolFilter: ["search"],
      descriptionOverrides: { search: "Search the KB" },
      connectTimeoutMs: 5000,
      callTimeoutMs: 60000,
    });
    expect(mcpAttachmentFor(model({ interface: "openai_endpoint" }))).toBeNull();
    expect(() =>
      agentPortFor(model({ interface: "openai_endpoint", mcp_urls_dict: { x: "ws://h" } })),
    ).toThrow(McpSpecError);
  });

  test("claude_agent_sdk is served by Claude Code; read-only access offers no code execution", () => {
    const env = { ANTHROPIC_API_KEY: "sk-ant-fake" };
    const writable = agentPortFor(model({ interface: "claude_agent_sdk" }), { env });
    const readOnly = agentPortFor(
      model({ interface: "claude_agent_sdk", agent_runtime: { access_mode: "read_only" } }),
      { env },
    );
    expect(writable.capabilities).toMatchObject({ supportsFileTools: true, supportsCodeExecution: true });
    expect(readOnly.capabilities).toMatchObject({ supportsFileTools: true, supportsCodeExecution: false });
    expect(() => agentPortFor(model({ interface: "claude_agent_sdk" }), { env: {} })).toThrow(
      /ANTHROPIC_API_KEY/,
    );
  });

  test("manual and taskeval models have no agent", () => {
    expect(() => agentPortFor(model({ interface: "taskeval" }))).toThrow(AdapterUnavailableError);
    expect(() => agentPortFor(model({ interface: "manual", manual_traces: {} }))).toThrow(
      AdapterUnavailableError,
    );
  });
});
