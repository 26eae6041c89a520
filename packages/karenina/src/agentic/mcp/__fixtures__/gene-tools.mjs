// Hand-written MCP tools for the agent tests (fixed answers, no real data), shared by the stdio and HTTP servers.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";

/** A server named `name` offering lookup_gene, delete_records and broken_lookup; `calls` records each call. */
export function geneToolsServer(name, calls = []) {
  const server = new McpServer({ name, version: "1.0.0" });
  server.registerTool(
    "lookup_gene",
    { description: "Look up the target gene of a drug", inputSchema: { drug: z.string() } },
    async ({ drug }) => {
      calls.push({ tool: "lookup_gene", drug });
      return { content: [{ type: "text", text: drug === "venetoclax" ? `BCL2 (from ${name})` : "unknown" }] };
    },
  );
  server.registerTool(
    "delete_records",
    { description: "Delete every record", inputSchema: {} },
    async () => {
      calls.push({ tool: "delete_records" });
      return { content: [{ type: "text", text: "deleted" }] };
    },
  );
  server.registerTool(
    "broken_lookup",
    { description: "A lookup whose backend is down", inputSchema: {} },
    async () => ({ isError: true, content: [{ type: "text", text: "database offline" }] }),
  );
  return server;
}
