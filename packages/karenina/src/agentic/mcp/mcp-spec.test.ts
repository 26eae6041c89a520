import { describe, expect, test } from "vitest";
import { thrown } from "../../test-support/thrown.js";
import {
  exposedToolNames,
  McpSpecError,
  mcpServerConfig,
  mcpServerConfigs,
  parseMcpSpec,
  splitCommandLine,
} from "./index.js";

describe("--mcp NAME=URL_OR_COMMAND", () => {
  test("a URL target is a streamable-HTTP server; anything else a stdio command line", () => {
    expect(parseMcpSpec("kb=http://127.0.0.1:8931/mcp")).toEqual({
      name: "kb",
      target: "http://127.0.0.1:8931/mcp",
    });
    expect(parseMcpSpec("files = node ./server.js --root 'my dir'")).toEqual({
      name: "files",
      target: "node ./server.js --root 'my dir'",
    });
    expect(mcpServerConfig("https://mcp.example.org/v1/mcp")).toEqual({
      type: "http",
      url: "https://mcp.example.org/v1/mcp",
    });
    expect(mcpServerConfig("node ./server.js --root 'my dir'")).toEqual({
      type: "stdio",
      command: "node",
      args: ["./server.js", "--root", "my dir"],
    });
  });

  test("a target after the first = may itself hold = signs", () => {
    expect(parseMcpSpec("q=http://127.0.0.1:1/mcp?a=b")).toEqual({
      name: "q",
      target: "http://127.0.0.1:1/mcp?a=b",
    });
  });

  test.each([
    ["kb", "NAME=URL_OR_COMMAND"],
    ["=http://127.0.0.1:1/mcp", "a server name of letters, digits, _ and - before the ="],
    ["my server=http://127.0.0.1:1/mcp", "a server name of letters, digits, _ and - before the ="],
    ["kb=", "a URL or a command after the ="],
    ["kb=ftp://host/mcp", "an http(s) URL or a command line, not a ftp: URL"],
    ["kb=node 'server.js", "a command line with its quotes closed"],
  ])("%s is refused, saying what was expected", (spec, expected) => {
    const error = thrown(McpSpecError, () => parseMcpSpec(spec));
    expect(error.expected).toBe(expected);
    expect(error.message).toBe(`MCP server ${JSON.stringify(spec)}: expected ${expected}`);
  });

  test("a model's mcp_urls_dict becomes client configurations; a bad value names its server", () => {
    expect(mcpServerConfigs({ a: "http://127.0.0.1:1/mcp", b: "uvx mcp-server-time" })).toEqual({
      a: { type: "http", url: "http://127.0.0.1:1/mcp" },
      b: { type: "stdio", command: "uvx", args: ["mcp-server-time"] },
    });
    expect(thrown(McpSpecError, () => mcpServerConfigs({ c: "ws://h/mcp" })).spec).toBe("c=ws://h/mcp");
  });

  test("command lines split on whitespace, with quotes and backslashes", () => {
    expect(splitCommandLine(`a "b c" 'd "e"' f\\ g ""`)).toEqual(["a", "b c", 'd "e"', "f g", ""]);
    expect(splitCommandLine(`a "b`)).toBeNull();
  });
});

describe("the names MCP tools are offered under", () => {
  test("unique names stay; colliding names get their server's prefix, as do names of static tools", () => {
    const names = exposedToolNames(
      [
        { server: "kb", name: "search" },
        { server: "web", name: "search" },
        { server: "web", name: "fetch" },
        { server: "fs", name: "read_file" },
      ],
      new Set(["read_file"]),
    );
    expect(names).toEqual(["kb__search", "web__search", "fetch", "fs__read_file"]);
  });

  test("names are made safe for providers and kept unique", () => {
    const names = exposedToolNames(
      [
        { server: "s", name: "get.item" },
        { server: "s", name: "get_item" },
        { server: "t", name: "x".repeat(80) },
      ],
      new Set(),
    );
    expect(names[0]).toBe("s__get_item");
    expect(names[1]).toBe("s__get_item_2");
    expect(names[2]).toBe("x".repeat(64));
  });
});
