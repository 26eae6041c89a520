/**
 * MCP servers attached to the tool-loop agent: real servers started by the test (a node child over stdio, and
 * streamable HTTP on 127.0.0.1), a model answering from the scripted OpenAI-compatible server. Model turns and
 * tool answers are hand-written test data.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import {
  LlmAbortedError,
  LlmCallError,
  type McpServerConfig,
  openAiEndpointModel,
  userMessage,
} from "../../llm/index.js";
import { mcpHttpServerPerTest } from "../../test-support/mcp-http-server.js";
import { startOpenAiServer } from "../../test-support/openai-server/index.js";
import { serverPerTest } from "../../test-support/server-per-test.js";
import { toolLoopAgent } from "../agent/index.js";
import { McpConnectError, mcpServerConfig } from "./index.js";

type GeneToolsServer = (name: string, calls: unknown[]) => McpServer;
const fixtures = new URL("./__fixtures__/", import.meta.url);
const { geneToolsServer } = (await import(new URL("gene-tools.mjs", fixtures).href)) as {
  geneToolsServer: GeneToolsServer;
};

const model = serverPerTest(startOpenAiServer);
const agent = () =>
  toolLoopAgent(openAiEndpointModel({ baseURL: model.url, apiKey: "k", modelName: "m" }), { maxRetries: 0 });
const QUESTION = [userMessage("What is the target of venetoclax?")];

let dir = "";
const startMcpHttp = mcpHttpServerPerTest();
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "karenina-mcp-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A stdio server config running the fixture with node; its pid goes to `<dir>/<name>.pid`. */
function stdioServer(name: string): McpServerConfig {
  return {
    type: "stdio",
    command: process.execPath,
    args: [fileURLToPath(new URL("stdio-server.mjs", fixtures)), join(dir, `${name}.pid`)],
  };
}

async function isRunning(name: string): Promise<boolean> {
  const pid = Number(await readFile(join(dir, `${name}.pid`), "utf8"));
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A streamable-HTTP MCP server on 127.0.0.1 (stateless: one server instance per request). */
async function httpServer(name: string): Promise<{ url: string; calls: unknown[] }> {
  const calls: unknown[] = [];
  return { url: await startMcpHttp(() => geneToolsServer(name, calls)), calls };
}

const offeredTools = (index = 0) =>
  ((model.requests[index]?.body.tools ?? []) as { function: { name: string; description: string } }[]).map(
    (t) => t.function,
  );

describe("MCP servers attached to a tool-loop agent", () => {
  test("seed 002 §1 over stdio: the model calls the server's tool, the result is in the trace, the child exits after the run", async () => {
    model.script(
      { reply: { toolCalls: [{ id: "c1", name: "lookup_gene", arguments: { drug: "venetoclax" } }] } },
      { reply: { text: "BCL2." } },
    );
    const result = await agent().run(QUESTION, { mcp: { servers: { genes: stdioServer("genes") } } });
    expect(result.traceMessages[1]).toMatchObject({
      role: "tool",
      content: [{ tool_use_id: "c1", content: "BCL2 (from stdio-genes)", is_error: false }],
    });
    expect(result.finalResponse).toBe("BCL2.");
    expect(offeredTools().map((t) => t.name)).toEqual(["lookup_gene", "delete_records", "broken_lookup"]);
    expect(await isRunning("genes")).toBe(false);
  });

  test("over streamable HTTP with an allow-list: a disallowed tool is never offered to the model", async () => {
    const server = await httpServer("http-genes");
    model.script(
      { reply: { toolCalls: [{ id: "c1", name: "lookup_gene", arguments: { drug: "venetoclax" } }] } },
      { reply: { text: "BCL2." } },
    );
    const result = await agent().run(QUESTION, {
      mcp: { servers: { kb: mcpServerConfig(server.url) }, toolFilter: ["lookup_gene"] },
    });
    expect(offeredTools(0).map((t) => t.name)).toEqual(["lookup_gene"]);
    expect(offeredTools(1).map((t) => t.name)).toEqual(["lookup_gene"]);
    expect(server.calls).toEqual([{ tool: "lookup_gene", drug: "venetoclax" }]);
    expect(result.traceMessages[1]?.content[0]).toMatchObject({ content: "BCL2 (from http-genes)" });
  });

  test("description overrides replace a tool's description", async () => {
    const server = await httpServer("http-genes");
    model.script({ reply: { text: "No tools needed." } });
    await agent().run(QUESTION, {
      mcp: {
        servers: { kb: mcpServerConfig(server.url) },
        descriptionOverrides: { lookup_gene: "Find a drug's gene target (curated)" },
      },
    });
    const tools = offeredTools();
    expect(tools.find((t) => t.name === "lookup_gene")?.description).toBe(
      "Find a drug's gene target (curated)",
    );
    expect(tools.find((t) => t.name === "delete_records")?.description).toBe("Delete every record");
  });

  test("a tool answering isError is an error result the model sees, and a suspect tool call", async () => {
    model.script(
      { reply: { toolCalls: [{ id: "c1", name: "broken_lookup", arguments: {} }] } },
      { reply: { text: "The database is offline." } },
    );
    const result = await agent().run(QUESTION, { mcp: { servers: { genes: stdioServer("genes") } } });
    expect(result.traceMessages[1]?.content[0]).toEqual({
      type: "tool_result",
      tool_use_id: "c1",
      content: "database offline",
      is_error: true,
    });
    expect(result.metrics.suspect_failed_tools).toEqual(["broken_lookup"]);
  });

  test("the same tool on two servers is offered once per server, and each call reaches its own server", async () => {
    const server = await httpServer("http-genes");
    model.script(
      {
        reply: {
          toolCalls: [
            { id: "a", name: "local__lookup_gene", arguments: { drug: "venetoclax" } },
            { id: "b", name: "remote__lookup_gene", arguments: { drug: "venetoclax" } },
          ],
        },
      },
      { reply: { text: "Both say BCL2." } },
    );
    const result = await agent().run(QUESTION, {
      mcp: {
        servers: { local: stdioServer("local"), remote: mcpServerConfig(server.url) },
        toolFilter: ["lookup_gene"],
      },
    });
    expect(offeredTools().map((t) => t.name)).toEqual(["local__lookup_gene", "remote__lookup_gene"]);
    expect(result.traceMessages.slice(1, 3).map((m) => m.content[0])).toMatchObject([
      { tool_use_id: "a", content: "BCL2 (from stdio-genes)" },
      { tool_use_id: "b", content: "BCL2 (from http-genes)" },
    ]);
  });

  test("the stdio child exits when the run fails", async () => {
    model.script({ reply: { status: 400, message: "bad request" } });
    const error = await agent()
      .run(QUESTION, { mcp: { servers: { genes: stdioServer("genes") } } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmCallError);
    expect(await isRunning("genes")).toBe(false);
  });

  test("the stdio child exits when the run is aborted", async () => {
    model.script({ reply: { text: "never", delayMs: 10_000 } });
    const controller = new AbortController();
    const run = agent().run(QUESTION, {
      mcp: { servers: { genes: stdioServer("genes") } },
      signal: controller.signal,
    });
    while (model.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    controller.abort();
    await expect(run).rejects.toBeInstanceOf(LlmAbortedError);
    expect(await isRunning("genes")).toBe(false);
  });

  test("a server that cannot be reached fails the run naming it, and the servers already attached are closed", async () => {
    const error = await agent()
      .run(QUESTION, {
        mcp: {
          servers: {
            genes: stdioServer("genes"),
            gone: { type: "http", url: "http://127.0.0.1:9/mcp" },
          },
        },
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpConnectError);
    expect(error).toMatchObject({ server: "gone", target: "http://127.0.0.1:9/mcp" });
    expect((error as Error).message).toMatch(
      /^MCP server gone \(http:\/\/127\.0\.0\.1:9\/mcp\): cannot connect: /,
    );
    expect(model.requests).toHaveLength(0);
    expect(await isRunning("genes")).toBe(false);
  });

  test("a stdio command that cannot start fails the run naming the command", async () => {
    const error = await agent()
      .run(QUESTION, { mcp: { servers: { bad: mcpServerConfig("/nonexistent/mcp-server --flag") } } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpConnectError);
    expect((error as Error).message).toContain(
      "MCP server bad (/nonexistent/mcp-server --flag): cannot connect",
    );
  });
});
