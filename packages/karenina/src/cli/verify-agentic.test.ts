/**
 * `karenina verify` with agents: workspaces, agentic parsing, turn limits, commands and MCP servers (started by
 * the test, over stdio and over streamable HTTP). Models answer from the scripted OpenAI-compatible server on
 * 127.0.0.1; every scripted turn and every MCP tool answer is hand-written test data, not output of any model.
 */
import { spawnSync } from "node:child_process";
import { cp, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { SUM_PROJECT, TESTS_PASS_TEMPLATE } from "../agentic/__fixtures__/sum-project.js";
import { Benchmark } from "../benchmark/index.js";
import { drugBenchmark, runKarenina, scriptedVerifyArgs } from "../test-support/cli.js";
import { mcpHttpServerPerTest } from "../test-support/mcp-http-server.js";
import { startOpenAiServer } from "../test-support/openai-server/index.js";
import { serverPerTest } from "../test-support/server-per-test.js";
import { EXIT } from "./cli-io.js";

const AGENTIC = new URL("../agentic/", import.meta.url);
const MCP_FIXTURES = new URL("mcp/__fixtures__/", AGENTIC);
const { geneToolsServer } = (await import(new URL("gene-tools.mjs", MCP_FIXTURES).href)) as {
  geneToolsServer: (name: string, calls: unknown[]) => McpServer;
};

const FIXED_SUM = `function sum(numbers) {
  let total = 0;
  for (const n of numbers) total += n;
  return total;
}

module.exports = { sum };
`;

const server = serverPerTest(startOpenAiServer);
let dir = "";
let root = "";
const startMcpHttp = mcpHttpServerPerTest();

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "karenina-cli-agentic-"));
  root = join(dir, "workspaces");
  await cp(SUM_PROJECT, join(root, "sum-project"), { recursive: true });
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function workspaceCheckpoint(): Promise<string> {
  const bench = Benchmark.create({ name: "cli-agentic" });
  bench.addQuestion("Fix the bug in sum.js so that `node sum.test.js` passes.", "it passes", {
    questionId: "fix-sum",
    answerTemplate: TESTS_PASS_TEMPLATE,
    workspacePath: "sum-project",
  });
  const file = join(dir, "bench.jsonld");
  await bench.save(file);
  return file;
}

/** Runs verify and returns the exit code and the one result written to the run log. */
async function verify(file: string, ...extra: string[]) {
  const output = join(dir, `run-${Date.now()}-${Math.random().toString(36).slice(2)}.jsonl`);
  const { code, err } = await runKarenina(
    ...scriptedVerifyArgs(server.baseURL, file, "-o", output, ...extra),
  );
  const lines = (await readFile(output, "utf8").catch(() => "")).split("\n").filter((line) => line !== "");
  return { code, err, result: lines.length > 0 ? JSON.parse(lines[0] as string) : null };
}

function scriptFix() {
  server.script(
    {
      match: { model: "answerer" },
      reply: { toolCalls: [{ name: "read_file", arguments: { path: "sum.js" } }] },
    },
    {
      match: { model: "answerer" },
      reply: { toolCalls: [{ name: "write_file", arguments: { path: "sum.js", content: FIXED_SUM } }] },
    },
    { match: { model: "answerer" }, reply: { text: "Fixed sum.js." } },
    {
      match: { model: "judge" },
      reply: { toolCalls: [{ name: "read_file", arguments: { path: "sum.js" } }] },
    },
    { match: { model: "judge" }, reply: { text: '{"tests_pass": true}' } },
    { match: { model: "judge" }, reply: { json: { tests_pass: true } } },
  );
}

const copies = async () => (await readdir(root)).filter((name) => name.startsWith("sum-project_run_"));
const judgeRequests = () => server.requests.filter((request) => request.body.model === "judge");
const answererRequests = () => server.requests.filter((request) => request.body.model === "answerer");
/** The tools offered in the answering agent's first request. */
const answererTools = () =>
  ((answererRequests()[0]?.body.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name);

describe("karenina verify --help", () => {
  test.each([
    ["--workspace-root <dir>", "--workspace-root ./workspaces"],
    ["--agentic-parsing", "--agentic-parsing --workspace-root"],
    ["--judge-context <mode>", "--judge-context trace_and_workspace"],
    ["--agent-max-turns <n>", "--agent-max-turns 30"],
    ["--no-workspace-copy", "--workspace-root ./ws --no-workspace-copy"],
    ["--keep-workspaces", "--workspace-root ./ws --keep-workspaces"],
    ["--mcp <name=url_or_command>", "--mcp kb=http://127.0.0.1:8931/mcp"],
    ["--allow-commands", "--workspace-root ./ws --allow-commands"],
  ])("documents %s with an example", async (flag, example) => {
    const { code, out } = await runKarenina("verify", "--help");
    expect(code).toBe(EXIT.ok);
    const help = out.replace(/\s+/g, " ");
    expect(help).toContain(flag);
    expect(help).toContain(`e.g. ${example}`);
  });
});

describe("karenina verify with workspaces and an agentic judge", () => {
  test("--workspace-root --agentic-parsing --judge-context --keep-workspaces: the fix is judged, the copy kept", async () => {
    const file = await workspaceCheckpoint();
    scriptFix();
    const { code, result } = await verify(
      file,
      "--workspace-root",
      root,
      "--agentic-parsing",
      "--judge-context",
      "trace_and_workspace",
      "--keep-workspaces",
    );
    expect(code).toBe(EXIT.ok);
    expect(result.template).toMatchObject({ verify_result: true, agentic_parsing_performed: true });
    const kept = await copies();
    expect(kept).toHaveLength(1);
    expect(spawnSync(process.execPath, ["sum.test.js"], { cwd: join(root, kept[0] as string) }).status).toBe(
      0,
    );
    expect(spawnSync(process.execPath, ["sum.test.js"], { cwd: join(root, "sum-project") }).status).toBe(1);
    const investigation = JSON.stringify(judgeRequests()[0]?.body.messages);
    expect(investigation).toContain("Answering agent trace");
    expect(investigation).toContain(`Workspace directory: ${join(root, kept[0] as string)}`);
  });

  test("--no-workspace-copy: the agent fixes the original directory; no copy is made", async () => {
    const file = await workspaceCheckpoint();
    scriptFix();
    const { code, result } = await verify(
      file,
      "--workspace-root",
      root,
      "--agentic-parsing",
      "--no-workspace-copy",
    );
    expect(code).toBe(EXIT.ok);
    expect(result.template.verify_result).toBe(true);
    expect(await readFile(join(root, "sum-project", "sum.js"), "utf8")).toBe(FIXED_SUM);
    expect(await copies()).toEqual([]);
  });

  test("without --keep-workspaces the working copy is removed", async () => {
    const file = await workspaceCheckpoint();
    scriptFix();
    const { result } = await verify(file, "--workspace-root", root, "--agentic-parsing");
    expect(result.template.verify_result).toBe(true);
    expect(await copies()).toEqual([]);
  });

  test("--agent-max-turns: an answering agent that reaches it fails on the recursion limit", async () => {
    const file = await workspaceCheckpoint();
    server.script({
      match: { model: "answerer" },
      reply: { toolCalls: [{ name: "list_files", arguments: {} }] },
      repeat: true,
    });
    const { code, result } = await verify(
      file,
      "--workspace-root",
      root,
      "--agentic-parsing",
      "--agent-max-turns",
      "2",
    );
    expect(code).toBe(EXIT.ok);
    expect(answererRequests()).toHaveLength(2);
    expect(result.template).toMatchObject({ recursion_limit_reached: true, verify_result: false });
    expect(result.metadata.failure.category).toBe("recursion_limit");
    expect(judgeRequests()).toHaveLength(0);
  });

  test("--allow-commands offers the answering agent run_command in its workspace", async () => {
    const file = await workspaceCheckpoint();
    server.script(
      {
        match: { model: "answerer" },
        reply: {
          toolCalls: [
            { name: "run_command", arguments: { command: process.execPath, args: ["sum.test.js"] } },
          ],
        },
      },
      { match: { model: "answerer" }, reply: { text: "The test fails: sum([1,2,3]) = 5." } },
      { match: { model: "judge" }, reply: { text: '{"tests_pass": false}' } },
      { match: { model: "judge" }, reply: { json: { tests_pass: false } } },
    );
    const { result } = await verify(file, "--workspace-root", root, "--agentic-parsing", "--allow-commands");
    const tools = answererTools();
    expect(tools).toContain("run_command");
    expect(result.template.raw_llm_response).toContain("expected 6");
    expect(JSON.stringify(answererRequests()[0]?.body.messages)).toContain("You can run commands there");
  });

  test("without --allow-commands the answering agent has no run_command", async () => {
    const file = await workspaceCheckpoint();
    scriptFix();
    await verify(file, "--workspace-root", root, "--agentic-parsing");
    const tools = answererTools();
    expect(tools.sort()).toEqual(["list_files", "read_file", "search_files", "write_file"]);
    expect(JSON.stringify(answererRequests()[0]?.body.messages)).toContain("you cannot run commands");
  });
  test("--allow-commands with no answering model working as an agent says run_command reaches no one", async () => {
    const file = await workspaceCheckpoint();
    server.script(
      { match: { model: "answerer" }, reply: { text: "Fixed it." } },
      { match: { model: "judge" }, reply: { json: { tests_pass: false } } },
    );
    const { err } = await verify(file, "--workspace-root", root, "--allow-commands");
    expect(err).toContain("warning: --allow-commands: no answering model works as an agent here");
    expect(answererTools()).toEqual([]);
  });

  test("--agentic-parsing without --workspace-root is a usage error", async () => {
    const file = await workspaceCheckpoint();
    const { code, err } = await runKarenina(...scriptedVerifyArgs(server.baseURL, file, "--agentic-parsing"));
    expect(code).toBe(EXIT.usage);
    expect(err).toContain("agentic parsing needs --workspace-root DIR");
    expect(server.requests).toHaveLength(0);
  });
});

describe("karenina verify --mcp", () => {
  /** The drug question answered by an agent that looks the target up on the MCP server "genes". */
  function scriptGeneLookup() {
    server.script(
      {
        match: { model: "answerer" },
        reply: { toolCalls: [{ name: "lookup_gene", arguments: { drug: "venetoclax" } }] },
      },
      { match: { model: "answerer" }, reply: { text: "Venetoclax (it inhibits BCL2)." } },
      { match: { model: "judge" }, reply: { json: { drug: "venetoclax" } } },
    );
  }

  async function drugCheckpoint(): Promise<string> {
    const file = join(dir, "drugs.jsonld");
    await drugBenchmark(1, "cli-mcp").save(file);
    return file;
  }

  test("seed 002 §1 a stdio MCP server: the answering model runs as an agent, its trace keeps the tool call", async () => {
    const file = await drugCheckpoint();
    scriptGeneLookup();
    const pidFile = join(dir, "genes.pid");
    const command = `'${process.execPath}' '${fileURLToPath(new URL("stdio-server.mjs", MCP_FIXTURES))}' '${pidFile}'`;
    const { code, result } = await verify(file, "--mcp", `genes=${command}`);
    expect(code).toBe(EXIT.ok);
    expect(result.template.verify_result).toBe(true);
    expect(result.template.answering_mcp_servers).toEqual(["genes"]);
    expect(result.metadata.answering.tools).toEqual(["genes"]);
    expect(result.template.raw_llm_response).toContain("BCL2 (from stdio-genes)");
    expect(result.template.agent_metrics).toMatchObject({ tools_used: ["lookup_gene"], tool_calls: 1 });
    const pid = Number(await readFile(pidFile, "utf8"));
    expect(() => process.kill(pid, 0)).toThrow();
  });

  test("trace validation runs on the MCP agent's trace: one that ends without a final answer fails, unjudged", async () => {
    const file = await drugCheckpoint();
    server.script(
      {
        match: { model: "answerer" },
        reply: { toolCalls: [{ name: "lookup_gene", arguments: { drug: "venetoclax" } }] },
      },
      { match: { model: "answerer" }, reply: { text: "" } },
    );
    const pidFile = join(dir, "genes-empty.pid");
    const command = `'${process.execPath}' '${fileURLToPath(new URL("stdio-server.mjs", MCP_FIXTURES))}' '${pidFile}'`;
    const { code, result } = await verify(file, "--mcp", `genes=${command}`);
    expect(code).toBe(EXIT.ok);
    expect(result.template.raw_llm_response).toContain("lookup_gene");
    expect(result.template.verify_result).toBe(false);
    expect(result.trace_extraction_error).toEqual(expect.any(String));
    expect(judgeRequests()).toHaveLength(0);
  });

  test("a streamable-HTTP MCP server", async () => {
    const calls: unknown[] = [];
    const url = await startMcpHttp(() => geneToolsServer("http-genes", calls));
    const file = await drugCheckpoint();
    scriptGeneLookup();
    const { code, result } = await verify(file, "--mcp", `genes=${url}`);
    expect(code).toBe(EXIT.ok);
    expect(result.template.verify_result).toBe(true);
    expect(result.template.raw_llm_response).toContain("BCL2 (from http-genes)");
    expect(calls).toEqual([{ tool: "lookup_gene", drug: "venetoclax" }]);
  });

  test("an unreadable --mcp is a usage error", async () => {
    const file = await drugCheckpoint();
    const { code, err } = await runKarenina(
      ...scriptedVerifyArgs(server.baseURL, file, "--mcp", "kb=ftp://h/mcp"),
    );
    expect(code).toBe(EXIT.usage);
    expect(err).toContain("--mcp: MCP server");
    expect(server.requests).toHaveLength(0);
  });
});
