import { attachMcpServers } from "../../agentic/index.js";
import { ApiError } from "../core/index.js";

/** A tool an MCP server offers. */
export interface McpToolInfo {
  readonly name: string;
  readonly description: string;
}

/** How long listing a server's tools may take. */
const LIST_TIMEOUT_MS = 10_000;

/**
 * The tools of an MCP server over streamable HTTP, by connecting and listing them (then closing).
 * @throws {ApiError} 502 naming the server and the cause when it cannot be reached or listed.
 */
export async function listMcpServerTools(name: string, url: string): Promise<McpToolInfo[]> {
  let toolbox: Awaited<ReturnType<typeof attachMcpServers>>;
  try {
    toolbox = await attachMcpServers(
      { servers: { [name]: { type: "http", url } }, connectTimeoutMs: LIST_TIMEOUT_MS },
      { signal: AbortSignal.timeout(LIST_TIMEOUT_MS) },
    );
  } catch (error) {
    throw new ApiError(
      502,
      "mcp_unreachable",
      `MCP server ${JSON.stringify(name)} at ${url}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  try {
    return Object.entries(toolbox.origins).map(([offered, origin]) => ({
      name: origin.name,
      description: toolbox.tools[offered]?.description ?? "",
    }));
  } finally {
    await toolbox.close();
  }
}
