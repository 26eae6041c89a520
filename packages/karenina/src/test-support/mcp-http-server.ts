/**
 * MCP servers over streamable HTTP on 127.0.0.1 for tests (stateless: one server instance per request), closed
 * after each test of the file that registers them.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { afterEach } from "vitest";

/**
 * Registers an `afterEach` that closes the servers started in a test, and returns `start(makeServer)`: it
 * serves the MCP server `makeServer()` builds (one per request) and resolves to its `http://127.0.0.1:<port>/mcp`.
 */
export function mcpHttpServerPerTest(): (makeServer: () => McpServer) => Promise<string> {
  const servers: Server[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
  return async (makeServer) => {
    const server = createServer(async (req, res) => {
      const mcp = makeServer();
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      res.on("close", () => {
        void transport.close();
        void mcp.close();
      });
      await mcp.connect(transport);
      await transport.handleRequest(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    servers.push(server);
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  };
}
