/**
 * How MCP servers are written down: `NAME=URL_OR_COMMAND` on the command line, `{name: URL_OR_COMMAND}` in a
 * model's `mcp_urls_dict`, and what each becomes for a client.
 */
import type { McpServerConfig } from "../../llm/index.js";
import { McpSpecError } from "./errors.js";

/** One `mcp_urls_dict` entry: the server's name and its URL or command line. */
export interface McpSpec {
  name: string;
  target: string;
}

const SERVER_NAME = /^[A-Za-z0-9_-]+$/;
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;

/**
 * Splits a command line into words: whitespace separates, single and double quotes group (and are removed),
 * a backslash outside single quotes escapes the next character. Null when a quote is left open.
 * @example
 * splitCommandLine(`node "my server.js" --port 3`); // ["node", "my server.js", "--port", "3"]
 */
export function splitCommandLine(line: string): string[] | null {
  const words: string[] = [];
  let word = "";
  let inWord = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < line.length; i++) {
    const char = line[i] as string;
    if (quote === "'") {
      if (char === "'") quote = null;
      else word += char;
    } else if (char === "\\" && i + 1 < line.length) {
      word += line[++i];
      inWord = true;
    } else if (quote === '"') {
      if (char === '"') quote = null;
      else word += char;
    } else if (char === '"' || char === "'") {
      quote = char;
      inWord = true;
    } else if (/\s/.test(char)) {
      if (inWord) words.push(word);
      word = "";
      inWord = false;
    } else {
      word += char;
      inWord = true;
    }
  }
  if (quote !== null) return null;
  if (inWord) words.push(word);
  return words;
}

/**
 * What an MCP target string stands for: an `http://` or `https://` URL is a streamable-HTTP server; anything
 * else is a command line run as a child process speaking MCP over stdio (`cmd args...`).
 * @throws {McpSpecError} for another URL scheme, an unclosed quote or an empty command.
 * @example
 * mcpServerConfig("http://127.0.0.1:8931/mcp"); // { type: "http", url: "http://127.0.0.1:8931/mcp" }
 * mcpServerConfig("npx -y @acme/mcp-server"); // { type: "stdio", command: "npx", args: ["-y", "@acme/mcp-server"] }
 */
export function mcpServerConfig(target: string): McpServerConfig {
  const trimmed = target.trim();
  if (SCHEME.test(trimmed)) {
    let url: URL;
    try {
      url = new URL(trimmed);
    } catch {
      throw new McpSpecError(target, "a valid http(s) URL or a command line");
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw new McpSpecError(target, `an http(s) URL or a command line, not a ${url.protocol} URL`);
    }
    return { type: "http", url: trimmed };
  }
  const words = splitCommandLine(trimmed);
  if (words === null) throw new McpSpecError(target, "a command line with its quotes closed");
  const [command, ...args] = words;
  if (command === undefined || command === "") {
    throw new McpSpecError(target, "an http(s) URL or a command line");
  }
  return { type: "stdio", command, args };
}

/**
 * Reads `--mcp NAME=URL_OR_COMMAND` into a `mcp_urls_dict` entry (`mcp_urls_dict[name] = target`). The name
 * is letters, digits, `_` and `-` (it becomes part of tool names); the target is checked as
 * {@link mcpServerConfig} checks it.
 * @throws {McpSpecError} naming the spec and what was expected.
 * @example
 * parseMcpSpec("search=http://127.0.0.1:8931/mcp"); // { name: "search", target: "http://127.0.0.1:8931/mcp" }
 * parseMcpSpec("files=node ./files-server.js --root ."); // { name: "files", target: "node ./files-server.js --root ." }
 */
export function parseMcpSpec(spec: string): McpSpec {
  const equals = spec.indexOf("=");
  if (equals < 0) throw new McpSpecError(spec, "NAME=URL_OR_COMMAND");
  const name = spec.slice(0, equals).trim();
  const target = spec.slice(equals + 1).trim();
  if (!SERVER_NAME.test(name)) {
    throw new McpSpecError(spec, "a server name of letters, digits, _ and - before the =");
  }
  if (target === "") throw new McpSpecError(spec, "a URL or a command after the =");
  try {
    mcpServerConfig(target);
  } catch (error) {
    if (error instanceof McpSpecError) throw new McpSpecError(spec, error.expected);
    throw error;
  }
  return { name, target };
}

/**
 * The servers of a model's `mcp_urls_dict`, as client configurations.
 * @throws {McpSpecError} when a value is neither an http(s) URL nor a command line.
 */
export function mcpServerConfigs(urls: Readonly<Record<string, string>>): Record<string, McpServerConfig> {
  return Object.fromEntries(
    Object.entries(urls).map(([name, target]) => {
      try {
        return [name, mcpServerConfig(target)];
      } catch (error) {
        if (error instanceof McpSpecError) throw new McpSpecError(`${name}=${target}`, error.expected);
        throw error;
      }
    }),
  );
}
