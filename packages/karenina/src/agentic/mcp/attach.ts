/**
 * Attaching MCP servers to a tool-loop run (spec 05 §7): connect to each server, list its tools, keep the
 * allowed ones, and offer them to the model as AI SDK tools that call the server. The caller closes the
 * returned toolbox when the run ends, which closes every session and stops every stdio child.
 */
import type { JSONSchema7 } from "@ai-sdk/provider";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { dynamicTool, jsonSchema, type Tool, type ToolSet } from "ai";
import type { McpAttachment, McpServerConfig } from "../../llm/index.js";
import { McpConnectError, McpToolError } from "./errors.js";
import { exposedToolNames, type ServerTool } from "./tool-names.js";

/** The MCP tools of a run, ready for the tool loop. */
export interface McpToolbox {
  /** The allowed tools of every server, under the names the model sees. */
  tools: ToolSet;
  /** The server and tool behind each offered name. */
  origins: Readonly<Record<string, ServerTool>>;
  /** Closes every session and transport (stdio children exit); idempotent, never throws. */
  close(): Promise<void>;
}

/** How {@link attachMcpServers} attaches servers. */
export interface AttachOptions {
  /** Names already offered to the model (static tools): an MCP tool with such a name gets its server's prefix. */
  reservedNames?: ReadonlySet<string>;
  /** Working directory of stdio servers (the run's workspace); default the process's. */
  workingDir?: string;
  /** Aborts connecting and listing. */
  signal?: AbortSignal;
}

const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
const DEFAULT_CALL_TIMEOUT_MS = 300_000;
const STDERR_TAIL = 2_000;
const CLIENT_INFO = { name: "karenina", version: "0.1.0" };

interface Connection {
  server: string;
  client: Client;
}

interface ListedTool {
  name: string;
  description?: string | undefined;
  inputSchema: unknown;
}

/** How a server is named in messages: its URL, or its command line. */
function describeTarget(config: McpServerConfig): string {
  return config.type === "http" ? config.url : [config.command, ...config.args].join(" ");
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

// Loaded on first use: the MCP SDK is large and only runs with MCP servers need it.
const mcpSdk = async () => {
  const [client, stdio, http] = await Promise.all([
    import("@modelcontextprotocol/sdk/client/index.js"),
    import("@modelcontextprotocol/sdk/client/stdio.js"),
    import("@modelcontextprotocol/sdk/client/streamableHttp.js"),
  ]);
  return { ...client, ...stdio, ...http };
};

async function transportFor(
  config: McpServerConfig,
  workingDir: string | undefined,
  stderr: { tail: string },
): Promise<Transport> {
  const { getDefaultEnvironment, StdioClientTransport, StreamableHTTPClientTransport } = await mcpSdk();
  if (config.type === "http") {
    const headers =
      config.headers === undefined ? undefined : { requestInit: { headers: { ...config.headers } } };
    return new StreamableHTTPClientTransport(new URL(config.url), headers);
  }
  const transport = new StdioClientTransport({
    command: config.command,
    args: [...config.args],
    env: { ...getDefaultEnvironment(), ...config.env },
    ...(workingDir === undefined ? {} : { cwd: workingDir }),
    stderr: "pipe",
  });
  // Read the child's stderr (a full pipe would block it) and keep its end for error messages.
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr.tail = (stderr.tail + chunk.toString("utf8")).slice(-STDERR_TAIL);
  });
  return transport;
}

async function connect(
  server: string,
  config: McpServerConfig,
  timeout: number,
  options: AttachOptions,
): Promise<Connection> {
  const stderr = { tail: "" };
  const { Client } = await mcpSdk();
  const client = new Client(CLIENT_INFO);
  try {
    await client.connect(await transportFor(config, options.workingDir, stderr), {
      timeout,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    return { server, client };
  } catch (error) {
    await client.close().catch(() => undefined);
    const output = stderr.tail.trim() === "" ? "" : `; its stderr ends with: ${stderr.tail.trim()}`;
    throw new McpConnectError(
      server,
      describeTarget(config),
      `cannot connect: ${messageOf(error)}${output}`,
      error,
    );
  }
}

async function listTools(
  connection: Connection,
  timeout: number,
  signal?: AbortSignal,
): Promise<ListedTool[]> {
  const tools: ListedTool[] = [];
  let cursor: string | undefined;
  do {
    const page = await connection.client.listTools(cursor === undefined ? undefined : { cursor }, {
      timeout,
      ...(signal === undefined ? {} : { signal }),
    });
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return tools;
}

/** The text of a tool result: its text parts (and embedded text resources), other parts summarised. */
function toolResultText(result: Record<string, unknown>): string {
  const content = result.content;
  if (!Array.isArray(content)) return JSON.stringify(result.structuredContent ?? result.toolResult ?? null);
  return content
    .map((part: Record<string, unknown>) => {
      if (part.type === "text" && typeof part.text === "string") return part.text;
      const resource = part.resource as Record<string, unknown> | undefined;
      if (part.type === "resource" && typeof resource?.text === "string") return resource.text;
      if (part.type === "image" || part.type === "audio") return `[${part.type} ${String(part.mimeType)}]`;
      return JSON.stringify(part);
    })
    .join("\n");
}

function mcpTool(connection: Connection, tool: ListedTool, description: string, callTimeout: number): Tool {
  return dynamicTool({
    description,
    inputSchema: jsonSchema(tool.inputSchema as JSONSchema7),
    execute: async (input, { abortSignal }) => {
      const result = await connection.client.callTool(
        { name: tool.name, arguments: (input ?? {}) as Record<string, unknown> },
        undefined,
        { timeout: callTimeout, ...(abortSignal === undefined ? {} : { signal: abortSignal }) },
      );
      const text = toolResultText(result);
      if (result.isError === true) throw new McpToolError(text);
      return text;
    },
  });
}

/**
 * Connects to every server of `attachment`, lists its tools and offers the allowed ones (`toolFilter`, by tool
 * name) as AI SDK tools, with `descriptionOverrides` applied; colliding names are told apart by server (see
 * {@link exposedToolNames}). An `isError` tool result becomes an error result the model sees.
 * @throws {McpConnectError} when a server cannot be reached or will not list its tools; every server already
 * attached is closed first.
 */
export async function attachMcpServers(
  attachment: McpAttachment,
  options: AttachOptions = {},
): Promise<McpToolbox> {
  const connectTimeout = attachment.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  const callTimeout = attachment.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
  const connections: Connection[] = [];
  let closing: Promise<void> | null = null;
  const close = () => {
    closing ??= Promise.allSettled(connections.map((c) => c.client.close())).then(() => undefined);
    return closing;
  };
  try {
    const attempts = await Promise.allSettled(
      Object.entries(attachment.servers).map(([server, config]) =>
        connect(server, config, connectTimeout, options),
      ),
    );
    for (const attempt of attempts) if (attempt.status === "fulfilled") connections.push(attempt.value);
    const failed = attempts.find((attempt) => attempt.status === "rejected");
    if (failed !== undefined) throw failed.reason;

    const allowed = attachment.toolFilter == null ? null : new Set(attachment.toolFilter);
    const offered: { connection: Connection; tool: ListedTool }[] = [];
    for (const connection of connections) {
      const tools = await listTools(connection, connectTimeout, options.signal).catch((error: unknown) => {
        const config = attachment.servers[connection.server] as McpServerConfig;
        throw new McpConnectError(
          connection.server,
          describeTarget(config),
          `cannot list tools: ${messageOf(error)}`,
          error,
        );
      });
      for (const tool of tools)
        if (allowed === null || allowed.has(tool.name)) offered.push({ connection, tool });
    }
    const names = exposedToolNames(
      offered.map(({ connection, tool }) => ({ server: connection.server, name: tool.name })),
      options.reservedNames ?? new Set(),
    );
    const tools: ToolSet = {};
    const origins: Record<string, ServerTool> = {};
    offered.forEach(({ connection, tool }, index) => {
      const name = names[index] as string;
      const description = attachment.descriptionOverrides?.[tool.name] ?? tool.description ?? "";
      tools[name] = mcpTool(connection, tool, description, callTimeout);
      origins[name] = { server: connection.server, name: tool.name };
    });
    return { tools, origins, close };
  } catch (error) {
    await close();
    throw error;
  }
}
