/**
 * The deep agent in its bubblewrap container, with the real Claude Code (the SDK's bundled native binary)
 * talking to a scripted Anthropic Messages server on 127.0.0.1 (by default through the model gate). The server's
 * replies are hand-written test data: a Write of a file in the workspace, a Bash command that reads a host file
 * outside it and leaves a background process, then a final answer; or a Bash command that tries to reach a
 * listener of the host's and an outside address. Nothing here reaches a real model or leaves 127.0.0.1 (the
 * outside address is tried only where there is no network).
 */
import { execFileSync } from "node:child_process";
import { existsSync, realpathSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { userMessage } from "../../llm/index.js";
import { claudeAgentPort } from "../deep-agent/index.js";
import {
  claudeBinary,
  type Paths,
  processesWith,
  reachOut,
  sleepMarker,
  startCountingListener,
  startScriptedClaudeServer,
  writeThenReadHostFile,
} from "./__fixtures__/scripted-claude.js";
import {
  CLAUDE_CODE_HOME,
  CLAUDE_CODE_MIN_ADDRESS_SPACE,
  type ClaudeSpawnedProcess,
  ContainerBackendUnavailableError,
  claudeCodeContainer,
  MODEL_RELAY_PORT,
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

  const port = (container: boolean, network?: "model" | "host") =>
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
      container: container ? { backend: "bubblewrap", ...(network === undefined ? {} : { network }) } : null,
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
    // Its model was reached through the gate: the scripted server got the key and the Messages path.
    const main = server.requests.filter((r) => r.url.startsWith("/v1/messages"));
    expect(main.length).toBeGreaterThanOrEqual(3);
    for (const request of main) {
      expect(request).toMatchObject({ method: "POST", apiKey: "sk-ant-hand-written-test-key" });
      expect(request.host).toBe(new URL(server.url).host);
    }
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

describe.skipIf(skipReason !== null)("the deep agent's network in bubblewrap (real Claude Code)", () => {
  let dir = "";
  let paths: Paths;
  let listener: Awaited<ReturnType<typeof startCountingListener>>;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "karenina-claude-net-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    const run = await mkdtemp(join(dir, "run-"));
    paths = { workspace: join(run, "workspace"), secret: join(run, "unused.txt") };
    await mkdir(paths.workspace);
    listener = await startCountingListener();
  });
  afterEach(async () => {
    await listener.close();
  });

  const session = async (network: "model" | "host", outside: string | null) => {
    const server = await startScriptedClaudeServer(reachOut(listener.port, outside), paths);
    try {
      const result = await claudeAgentPort({
        modelName: "claude-sonnet-4-5",
        apiKey: "sk-ant-hand-written-test-key",
        baseURL: server.url,
        env: { PATH: process.env.PATH, HOME: join(paths.workspace, "..") },
        timeoutMs: 90_000,
        container: { backend: "bubblewrap", network },
      }).run([userMessage("What is the target of venetoclax?")], { workingDir: paths.workspace });
      return { result, bash: server.toolResults[0] ?? "", requests: server.requests };
    } finally {
      await server.close();
    }
  };

  test("the agent's commands reach neither a listener on the host's 127.0.0.1 nor an outside address", async () => {
    // 192.0.2.1 (TEST-NET-1) is tried only here, where the container has no route out.
    const { result, bash, requests } = await session("model", "192.0.2.1");
    expect(result.finalResponse).toContain("BCL2");
    expect(requests.some((r) => r.url.startsWith("/v1/messages"))).toBe(true);
    expect(bash).toContain("loopback=failed");
    expect(bash).toContain("Connection refused");
    expect(bash).toContain("outside=failed");
    expect(bash).toContain("Network is unreachable");
    expect(bash).not.toContain("connected");
    expect(listener.connections()).toBe(0);
  }, 120_000);

  test("with the host's network (container_network bridge) the same command reaches the host's listener", async () => {
    const { result, bash } = await session("host", null);
    expect(result.finalResponse).toContain("BCL2");
    expect(bash).toContain("loopback=connected");
    expect(listener.connections()).toBeGreaterThanOrEqual(1);
  }, 120_000);
});

/** Output, exit, of a spawned process; its stdin is left open until `input` is called. */
function collect(child: ClaudeSpawnedProcess) {
  let out = "";
  child.stdout.setEncoding("utf8").on("data", (data: string) => {
    out += data;
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return { output: () => out, exited };
}

/** The relay processes of a gate: the host's node running the relay script with the gate's socket. */
async function relaysOf(socket: string): Promise<number[]> {
  const node = realpathSync(process.execPath);
  const found: number[] = [];
  for (const pid of await processesWith(socket)) {
    const argv = await readFile(join("/proc", String(pid), "cmdline"), "utf8").catch(() => "");
    if (argv.split("\0")[0] === node) found.push(pid);
  }
  return found;
}

describe.skipIf(skipReason !== null)("the spawn hook's container", () => {
  test("has only its loopback and the relay to the gate, keeps the key off bwrap's command line, and raises a too-small address-space limit", async () => {
    const workspace = await mkdtemp(join(tmpdir(), "karenina-claude-spawn-"));
    const container = await claudeCodeContainer({ workspace, limits: { memoryBytes: 256 * 1024 ** 2 } });
    try {
      const child = container.spawn({
        command: "/bin/sh",
        args: ["-c", 'ulimit -v; echo "$HOME $ANTHROPIC_API_KEY $ANTHROPIC_BASE_URL $HTTPS_PROXY"; pwd'],
        env: {
          ANTHROPIC_API_KEY: "sk-ant-hand-written",
          HOME: "/root",
          HTTPS_PROXY: "http://proxy.example:3128",
        },
      });
      child.stdin.end();
      const { output, exited } = collect(child);
      await exited;
      expect(output().split("\n")).toEqual([
        String(CLAUDE_CODE_MIN_ADDRESS_SPACE / 1024),
        `${CLAUDE_CODE_HOME} sk-ant-hand-written http://127.0.0.1:${MODEL_RELAY_PORT} `,
        workspace,
        "",
      ]);
      const args = container.lastArgs ?? [];
      expect(args).toContain("--unshare-all");
      expect(args).not.toContain("--share-net");
      expect(args).not.toContain("--clearenv");
      expect(args.join(" ")).not.toContain("sk-ant-hand-written");
    } finally {
      await container.dispose();
      await rm(workspace, { recursive: true, force: true });
    }
  });

  test("with the host's network: shared, no gate, no relay, the base URL untouched", async () => {
    const workspace = await mkdtemp(join(tmpdir(), "karenina-claude-spawn-"));
    const container = await claudeCodeContainer({ workspace, network: "host" });
    try {
      expect(container.gateSocket).toBeNull();
      const child = container.spawn({
        command: "/bin/sh",
        args: ["-c", 'echo "$ANTHROPIC_BASE_URL"'],
        env: { ANTHROPIC_BASE_URL: "http://127.0.0.1:9" },
      });
      child.stdin.end();
      const { output, exited } = collect(child);
      await exited;
      expect(output()).toBe("http://127.0.0.1:9\n");
      expect(container.lastArgs).toContain("--share-net");
    } finally {
      await container.dispose();
      await rm(workspace, { recursive: true, force: true });
    }
  });

  test("the relay lives only as long as the session, and dispose removes the gate's socket folder", async () => {
    const workspace = await mkdtemp(join(tmpdir(), "karenina-claude-spawn-"));
    try {
      // A session that ends by itself (stdin closed), then its container disposed.
      const ending = await claudeCodeContainer({ workspace });
      const socket = ending.gateSocket ?? "";
      expect(existsSync(socket)).toBe(true);
      const child = ending.spawn({ command: "/bin/sh", args: ["-c", "read line; echo got $line"], env: {} });
      const { output, exited } = collect(child);
      // The relay is there while the session runs.
      const relayUp = await waitFor(async () => (await relaysOf(socket)).length === 1);
      expect(relayUp).toBe(true);
      child.stdin.end("bye\n");
      await exited;
      expect(output()).toBe("got bye\n");
      expect(await relaysOf(socket)).toEqual([]);
      await ending.dispose();
      expect(existsSync(dirname(socket))).toBe(false);

      // A session cut short: dispose while it runs.
      const cut = await claudeCodeContainer({ workspace });
      const cutSocket = cut.gateSocket ?? "";
      const running = cut.spawn({ command: "/bin/sh", args: ["-c", "read line"], env: {} });
      const cutRun = collect(running);
      expect(await waitFor(async () => (await relaysOf(cutSocket)).length === 1)).toBe(true);
      await cut.dispose();
      await cutRun.exited;
      expect(await waitFor(async () => (await relaysOf(cutSocket)).length === 0)).toBe(true);
      expect(existsSync(dirname(cutSocket))).toBe(false);
    } finally {
      await rm(workspace, { recursive: true, force: true });
    }
  }, 30_000);
});

/** Polls `check` every 50 ms until it holds (true) or 10 s have passed (false). */
async function waitFor(check: () => Promise<boolean>): Promise<boolean> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

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

test("the build ships the model relay beside the compiled container module", async () => {
  const src = fileURLToPath(new URL("../../", import.meta.url));
  const copyScript = fileURLToPath(new URL("../../../scripts/copy-python-files.mjs", import.meta.url));
  const out = await mkdtemp(join(tmpdir(), "karenina-relay-copy-"));
  try {
    execFileSync(process.execPath, [copyScript, src, out]);
    const relay = join("agentic", "containers", "assets", "model-relay.mjs");
    expect(await readFile(join(out, relay), "utf8")).toBe(await readFile(join(src, relay), "utf8"));
  } finally {
    await rm(out, { recursive: true, force: true });
  }
});
