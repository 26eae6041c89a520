/**
 * The deep_agent adapter up to the process boundary: the Claude Agent SDK starts a fake Claude Code written by
 * the test (a node script that records its argv, cwd, environment and stdin, and replies with a hand-written
 * stream-json transcript). Nothing here reaches a real model.
 */
import { chmod, mkdir, mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { tool } from "ai";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { z } from "zod";
import { AdapterUnavailableError, systemMessage, userMessage } from "../../llm/index.js";
import { AgentExecutionError } from "../agent/index.js";
import { type ClaudeAgentSettings, claudeAgentPort } from "./index.js";

/** The fake Claude Code: answers initialize, then plays `transcript.jsonl` (see the entry kinds below). */
const FAKE_CLAUDE = `#!${process.execPath}
// Fake Claude Code written by the karenina tests. Transcript entries: a stream-json frame (sent as is),
// {"ask": {tool_name, input}} (a permission request; waits for the answer), {"hang": true}, {"exit": code}.
const fs = require("node:fs");
const path = require("node:path");
const here = path.dirname(process.argv[1]);
const record = { argv: process.argv.slice(2), cwd: process.cwd(), env: process.env, stdin: [] };
const save = () => fs.writeFileSync(path.join(here, "record.json"), JSON.stringify(record));
save();
const queue = fs.readFileSync(path.join(here, "transcript.jsonl"), "utf8").split("\\n").filter(Boolean).map((l) => JSON.parse(l));
const out = (frame) => process.stdout.write(JSON.stringify(frame) + "\\n");
let waiting = null;
let asked = 0;
function pump() {
  while (queue.length > 0) {
    const item = queue.shift();
    if (item.hang) return;
    if (item.exit !== undefined) process.exit(item.exit);
    if (item.ask) {
      waiting = "perm-" + ++asked;
      out({ type: "control_request", request_id: waiting, request: { subtype: "can_use_tool", tool_use_id: "t" + asked, ...item.ask } });
      return;
    }
    out(item);
  }
}
require("node:readline").createInterface({ input: process.stdin }).on("line", (line) => {
  const message = JSON.parse(line);
  record.stdin.push(message);
  save();
  if (message.type === "control_request" && message.request.subtype === "initialize") {
    out({ type: "control_response", response: { subtype: "success", request_id: message.request_id, response: { mcp_servers_applied: true } } });
  } else if (message.type === "user") pump();
  else if (message.type === "control_response" && message.response.request_id === waiting) {
    waiting = null;
    pump();
  }
}).on("close", () => process.exit(0));
`;

interface ProcessRecord {
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  stdin: {
    type: string;
    request?: Record<string, unknown>;
    response?: Record<string, unknown>;
    message?: unknown;
  }[];
}

let dir = "";
let workspace = "";
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "karenina-claude-"));
  workspace = join(dir, "workspace");
  await mkdir(join(dir, "bin"));
  await mkdir(workspace);
  await writeFile(join(dir, "bin", "claude"), FAKE_CLAUDE);
  await chmod(join(dir, "bin", "claude"), 0o755);
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function transcript(...entries: unknown[]): Promise<void> {
  await writeFile(join(dir, "bin", "transcript.jsonl"), entries.map((e) => JSON.stringify(e)).join("\n"));
}

async function recorded(): Promise<ProcessRecord> {
  return JSON.parse(await readFile(join(dir, "bin", "record.json"), "utf8")) as ProcessRecord;
}

const settings = (more: Partial<ClaudeAgentSettings> = {}): ClaudeAgentSettings => ({
  modelName: "claude-test",
  apiKey: "sk-ant-fake-key",
  baseURL: "http://127.0.0.1:9/gateway",
  env: { PATH: process.env.PATH, HOME: dir },
  pathToClaudeCodeExecutable: join(dir, "bin", "claude"),
  ...more,
});

// A hand-written Claude Code session: init, one API message streamed as two frames (text, then a tool call),
// the tool's result, the final answer, and the result message.
const INIT = {
  type: "system",
  subtype: "init",
  session_id: "sess-1",
  model: "claude-test-20250101",
  cwd: "/",
  tools: [],
};
const assistant = (id: string, block: unknown, usage = { input_tokens: 10, output_tokens: 4 }) => ({
  type: "assistant",
  parent_tool_use_id: null,
  session_id: "sess-1",
  message: { id, type: "message", role: "assistant", model: "claude-test-20250101", content: [block], usage },
});
const TOOL_RESULT = {
  type: "user",
  parent_tool_use_id: null,
  session_id: "sess-1",
  message: { role: "user", content: [{ type: "tool_result", tool_use_id: "tu1", content: "BCL2\n" }] },
};
const result = (subtype: string, more: object = {}) => ({
  type: "result",
  subtype,
  is_error: subtype !== "success",
  num_turns: 2,
  session_id: "sess-1",
  total_cost_usd: 0.0123,
  usage: {
    input_tokens: 120,
    output_tokens: 30,
    cache_read_input_tokens: 50,
    cache_creation_input_tokens: 0,
  },
  ...more,
});

const QUESTION = [systemMessage("Answer briefly."), userMessage("What is the target of venetoclax?")];

describe("deep_agent (Claude Code through the Claude Agent SDK)", () => {
  test("seed 002 §1 Claude Code runs in the workspace with the run's options, and its stream becomes the trace", async () => {
    await transcript(
      INIT,
      assistant("msg1", { type: "text", text: "Let me check the notes." }),
      assistant("msg1", { type: "tool_use", id: "tu1", name: "Read", input: { file_path: "notes.txt" } }),
      TOOL_RESULT,
      { ask: { tool_name: "mcp__kb__lookup_gene", input: { drug: "venetoclax" } } },
      { ask: { tool_name: "mcp__kb__delete_records", input: {} } },
      assistant(
        "msg2",
        { type: "text", text: "The target is BCL2." },
        { input_tokens: 20, output_tokens: 6 },
      ),
      result("success", { result: "The target is BCL2." }),
    );
    const port = claudeAgentPort(
      settings({
        mcp: {
          servers: {
            kb: { type: "http", url: "http://127.0.0.1:9/mcp" },
            files: { type: "stdio", command: "node", args: ["files.js"] },
          },
          toolFilter: ["lookup_gene"],
        },
      }),
    );
    const run = await port.run(QUESTION, { workingDir: workspace, maxTurns: 7 });

    const process_ = await recorded();
    expect(process_.cwd).toBe(await realpath(workspace));
    expect(process_.argv).toEqual(
      expect.arrayContaining([
        "--output-format",
        "stream-json",
        "--max-turns=7",
        "--model=claude-test",
        "--disallowedTools=Skill",
        "--setting-sources=",
        "--permission-mode=default",
        "--permission-prompt-tool=stdio",
      ]),
    );
    expect(process_.argv.join(" ")).not.toContain("127.0.0.1:9/mcp");
    expect(process_.env).toMatchObject({
      ANTHROPIC_API_KEY: "sk-ant-fake-key",
      ANTHROPIC_BASE_URL: "http://127.0.0.1:9/gateway",
      HOME: dir,
    });
    const [initialize, prompt] = process_.stdin;
    expect(initialize?.request).toMatchObject({
      subtype: "initialize",
      appendSystemPrompt: "Answer briefly.",
      mcpServers: {
        kb: { type: "http", url: "http://127.0.0.1:9/mcp" },
        files: { type: "stdio", command: "node", args: ["files.js"] },
      },
    });
    expect(prompt).toMatchObject({
      type: "user",
      message: { role: "user", content: [{ type: "text", text: "What is the target of venetoclax?" }] },
    });
    const permissions = process_.stdin.filter((m) => m.type === "control_response").map((m) => m.response);
    expect(permissions).toMatchObject([
      { request_id: "perm-1", response: { behavior: "allow" } },
      { request_id: "perm-2", response: { behavior: "deny" } },
    ]);

    expect(run.traceMessages.map(({ role, content }) => ({ role, content }))).toEqual([
      {
        role: "assistant",
        content: [
          { type: "text", text: "Let me check the notes." },
          { type: "tool_use", id: "tu1", name: "Read", input: { file_path: "notes.txt" } },
        ],
      },
      {
        role: "tool",
        content: [{ type: "tool_result", tool_use_id: "tu1", content: "BCL2\n", is_error: false }],
      },
      { role: "assistant", content: [{ type: "text", text: "The target is BCL2." }] },
    ]);
    expect(run.traceMessages[2]?.usage_metadata).toMatchObject({ input_tokens: 20, output_tokens: 6 });
    expect(run).toMatchObject({
      finalResponse: "The target is BCL2.",
      turns: 2,
      limitReached: false,
      timeoutReached: false,
      sessionId: "sess-1",
      actualModel: "claude-test-20250101",
      usage: {
        input_tokens: 120,
        output_tokens: 30,
        total_tokens: 150,
        cache_read_tokens: 50,
        cost_usd: 0.0123,
        model: "claude-test-20250101",
      },
    });
    expect(run.rawTrace).toContain("--- Tool Message (call_id: tu1) ---\nBCL2");
    expect(run.metrics).toMatchObject({ iterations: 2, tools_used: ["Read"] });
  });

  test("seed 002 §1 the turn limit ending the session is limitReached, not an error", async () => {
    await transcript(
      INIT,
      assistant("msg1", { type: "tool_use", id: "tu1", name: "Bash", input: { command: "ls" } }),
      result("error_max_turns", { num_turns: 3, errors: [] }),
    );
    const run = await claudeAgentPort(settings()).run(QUESTION, { workingDir: workspace, maxTurns: 3 });
    expect(run).toMatchObject({ limitReached: true, turns: 3, finalResponse: "" });
    expect(run.metrics.limit_reached).toBe(true);
  });

  test("a session that fails is an AgentExecutionError carrying Claude Code's errors", async () => {
    await transcript(
      INIT,
      result("error_during_execution", { errors: ["API Error: 401 invalid x-api-key"] }),
    );
    const error = await claudeAgentPort(settings())
      .run(QUESTION, { workingDir: workspace })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AgentExecutionError);
    expect((error as Error).message).toBe(
      "Claude Code run failed (error_during_execution): API Error: 401 invalid x-api-key",
    );
  });

  test("a process that exits without a result message is an AgentExecutionError", async () => {
    await transcript(INIT, { exit: 3 });
    const error = await claudeAgentPort(settings())
      .run(QUESTION, { workingDir: workspace })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AgentExecutionError);
  });

  test("the wall-clock limit ends the session with the partial trace", async () => {
    await transcript(INIT, assistant("msg1", { type: "text", text: "Working on it..." }), { hang: true });
    const run = await claudeAgentPort(settings()).run(QUESTION, { workingDir: workspace, timeoutMs: 1_500 });
    expect(run).toMatchObject({
      timeoutReached: true,
      limitReached: false,
      finalResponse: "Working on it...",
    });
  });

  test("read-only mode offers only the reading tools and refuses any other", async () => {
    await transcript(INIT, { ask: { tool_name: "Write", input: { file_path: "x" } } }, result("success"));
    const port = claudeAgentPort(settings({ readOnly: true }));
    expect(port.capabilities).toMatchObject({ supportsFileTools: true, supportsCodeExecution: false });
    await port.run(QUESTION, { workingDir: workspace });
    const process_ = await recorded();
    expect(process_.argv).toContain("--tools=Read,Glob,Grep");
    expect(process_.stdin.find((m) => m.type === "control_response")?.response).toMatchObject({
      response: { behavior: "deny", message: "Write is not allowed: this run is read-only" },
    });
  });

  test("static AI SDK tools cannot be given to Claude Code", async () => {
    const extra = tool({ description: "x", inputSchema: z.object({}), execute: async () => "x" });
    const error = await claudeAgentPort(settings())
      .run(QUESTION, { tools: { extra } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AgentExecutionError);
    expect((error as Error).message).toContain("give them to a tool_loop model");
  });

  test("without a key anywhere the adapter is unavailable and names ANTHROPIC_API_KEY", () => {
    expect(() => claudeAgentPort(settings({ apiKey: null, env: { PATH: "/bin" } }))).toThrow(
      AdapterUnavailableError,
    );
    expect(() => claudeAgentPort(settings({ apiKey: null, env: { PATH: "/bin" } }))).toThrow(
      /ANTHROPIC_API_KEY/,
    );
    expect(() =>
      claudeAgentPort(settings({ apiKey: null, env: { CLAUDE_CODE_OAUTH_TOKEN: "t" } })),
    ).not.toThrow();
  });
});
