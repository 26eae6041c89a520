/**
 * The deep agent in its bubblewrap container, with the real Claude Code (the SDK's bundled native binary)
 * talking to a scripted Anthropic Messages server on 127.0.0.1. The server's replies are hand-written test data:
 * a Write of a file in the workspace, a Bash command that reads a host file outside it and leaves a background
 * process, then a final answer. Nothing here reaches a real model.
 */
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { userMessage } from "../../llm/index.js";
import { claudeAgentPort } from "../deep-agent/index.js";
import {
  claudeBinary,
  type Paths,
  processesWith,
  sleepMarker,
  startScriptedClaudeServer,
  writeThenReadHostFile,
} from "./__fixtures__/scripted-claude.js";
import {
  CLAUDE_CODE_HOME,
  CLAUDE_CODE_MIN_ADDRESS_SPACE,
  ContainerBackendUnavailableError,
  claudeCodeContainer,
} from "./index.js";

function bwrapWorks(): boolean {
  try {
    execFileSync("bwrap", ["--ro-bind", "/", "/", "--unshare-all", "--", "/bin/true"], { timeout: 10_000 });
    return true;
  } catch {
    return false;
  }
}

const binary = process.platform === "linux" ? claudeBinary() : null;
const skipReason =
  process.platform !== "linux"
    ? "bubblewrap is Linux only"
    : binary === null
      ? "the Claude Code binary of the Claude Agent SDK is not installed for this platform"
      : !bwrapWorks()
        ? "bwrap is missing or cannot make a container here"
        : null;

const SLEEP_MARKER = sleepMarker(987_000);
const WRITE_THEN_READ_HOST_FILE = writeThenReadHostFile(SLEEP_MARKER);

describe.skipIf(skipReason !== null)(`deep agent in bubblewrap (${skipReason ?? "real Claude Code"})`, () => {
  let dir = "";
  let paths: Paths;
  let hostHome = "";
  let server: Awaited<ReturnType<typeof startScriptedClaudeServer>>;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "karenina-claude-box-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    const run = await mkdtemp(join(dir, "run-"));
    paths = { workspace: join(run, "workspace"), secret: join(run, "host-secret.txt") };
    hostHome = join(run, "home");
    await mkdir(paths.workspace);
    await mkdir(hostHome);
    await writeFile(paths.secret, "HOST-SECRET-7f3a\n");
    server = await startScriptedClaudeServer(WRITE_THEN_READ_HOST_FILE, paths);
  });
  afterEach(async () => {
    await server.close();
  });

  const port = (container: boolean) =>
    claudeAgentPort({
      modelName: "claude-sonnet-4-5",
      apiKey: "sk-ant-hand-written-test-key",
      baseURL: server.url,
      env: {
        PATH: process.env.PATH,
        HOME: hostHome,
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
        DISABLE_AUTOUPDATER: "1",
      },
      timeoutMs: 90_000,
      container: container ? { backend: "bubblewrap" } : null,
    });

  test("Claude Code writes in the workspace, cannot read a host file outside it, and leaves no process or home behind", async () => {
    const result = await port(true).run([userMessage("What is the target of venetoclax?")], {
      workingDir: paths.workspace,
    });
    expect(result.finalResponse).toContain("BCL2");
    expect(await readFile(join(paths.workspace, "answer.txt"), "utf8")).toBe("BCL2\n");
    const bash = server.toolResults[1] ?? "";
    expect(bash).toContain("No such file or directory");
    expect(bash).not.toContain("HOST-SECRET-7f3a");
    expect(bash).toContain(`home=${CLAUDE_CODE_HOME}`);
    // Its state went to the container's private home, not the host's.
    expect(await readdir(hostHome)).toEqual([]);
    expect(await processesWith(SLEEP_MARKER)).toEqual([]);
  }, 120_000);

  test("the same session on the host reads the host file (what the container prevents)", async () => {
    const result = await port(false).run([userMessage("What is the target of venetoclax?")], {
      workingDir: paths.workspace,
    });
    expect(result.finalResponse).toContain("BCL2");
    expect(server.toolResults[1] ?? "").toContain("HOST-SECRET-7f3a");
    for (const pid of await processesWith(SLEEP_MARKER)) process.kill(pid, "SIGKILL");
  }, 120_000);
});

describe.skipIf(skipReason !== null)("the spawn hook's container", () => {
  test("shares the network, keeps the key off bwrap's command line, and raises a too-small address-space limit", async () => {
    const workspace = await mkdtemp(join(tmpdir(), "karenina-claude-spawn-"));
    const container = await claudeCodeContainer({ workspace, limits: { memoryBytes: 256 * 1024 ** 2 } });
    try {
      const child = container.spawn({
        command: "/bin/sh",
        args: ["-c", 'ulimit -v; echo "$HOME $ANTHROPIC_API_KEY"; pwd'],
        env: { ANTHROPIC_API_KEY: "sk-ant-hand-written", HOME: "/root" },
      });
      child.stdin.end();
      let out = "";
      child.stdout.setEncoding("utf8").on("data", (data: string) => {
        out += data;
      });
      await new Promise((resolve) => child.once("exit", resolve));
      expect(out.split("\n")).toEqual([
        String(CLAUDE_CODE_MIN_ADDRESS_SPACE / 1024),
        `${CLAUDE_CODE_HOME} sk-ant-hand-written`,
        workspace,
        "",
      ]);
      const args = container.lastArgs ?? [];
      expect(args).toContain("--share-net");
      expect(args).not.toContain("--clearenv");
      expect(args.join(" ")).not.toContain("sk-ant-hand-written");
    } finally {
      await container.dispose();
      await rm(workspace, { recursive: true, force: true });
    }
  });
});

describe("the deep agent's container when bubblewrap is missing", () => {
  test("the run fails with ContainerBackendUnavailableError and never starts Claude Code on the host", async () => {
    const workspace = await mkdtemp(join(tmpdir(), "karenina-claude-nobox-"));
    try {
      const port = claudeAgentPort({
        modelName: "claude-sonnet-4-5",
        apiKey: "sk-ant-hand-written-test-key",
        baseURL: "http://127.0.0.1:9",
        env: { PATH: process.env.PATH },
        pathToClaudeCodeExecutable: "/nonexistent/claude",
        container: { backend: "bubblewrap", bwrapPath: "/nonexistent/bwrap" },
      });
      const run = port.run([userMessage("hi")], { workingDir: workspace });
      await expect(run).rejects.toBeInstanceOf(ContainerBackendUnavailableError);
      await expect(run).rejects.toThrow(/container backend bubblewrap is unavailable.*bwrap/);
      await expect(claudeCodeContainer({ workspace, bwrapPath: "/nonexistent/bwrap" })).rejects.toThrow(
        ContainerBackendUnavailableError,
      );
    } finally {
      await rm(workspace, { recursive: true, force: true });
    }
  });
});
