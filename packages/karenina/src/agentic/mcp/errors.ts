import { KareninaError } from "../../errors/index.js";
import { PortError } from "../../llm/index.js";

/** An MCP server given as `NAME=URL_OR_COMMAND` (or a `mcp_urls_dict` value) that cannot be used. */
export class McpSpecError extends KareninaError {
  override readonly name: string = "McpSpecError";

  constructor(
    readonly spec: string,
    readonly expected: string,
  ) {
    super(`MCP server ${JSON.stringify(spec)}: expected ${expected}`);
  }
}

/** An MCP server could not be reached, or would not list its tools. */
export class McpConnectError extends PortError {
  override readonly name: string = "McpConnectError";

  constructor(
    readonly server: string,
    readonly target: string,
    reason: string,
    cause?: unknown,
  ) {
    super(`MCP server ${server} (${target}): ${reason}`, { cause });
  }
}

/**
 * A tool answered with an error result (`isError`). Thrown inside the tool loop, where the AI SDK turns it into
 * an error tool result the model sees; its message is the tool's own text.
 */
export class McpToolError extends PortError {
  override readonly name: string = "McpToolError";
}
