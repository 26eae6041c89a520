/**
 * The deep agent in a Docker or Podman container. Against the scripted engine (a hand-written Docker Engine
 * API on a unix socket): the create options, the process adapter over the hijacked attach stream, kill,
 * abort, removal and the errors. Against a real Podman engine (see test-support/container-engine.ts): the real
 * Claude Code (the SDK's bundled binary) talking to a scripted Anthropic server, in a container.
 */
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Docker from "dockerode";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi } from "vitest";
import { userMessage } from "../../llm/index.js";
import { containerEngineForTests } from "../../test-support/container-engine.js";
import { claudeAgentPort } from "../deep-agent/index.js";
import {
  claudeBinary,
  type Paths,
  processesWith,
  sleepMarker,
  startScriptedClaudeServer,
  writeThenReadHostFile,
} from "./__fixtures__/scripted-claude.js";
import { type ScriptedEngine, startScriptedEngine } from "./__fixtures__/scripted-engine.js";
import {
  CLAUDE_CODE_CONTAINER_LABEL,
  CLAUDE_CODE_HOME,
  CLAUDE_CODE_MIN_ADDRESS_SPACE,
  type ClaudeSpawnedProcess,
  ContainerBackendUnavailableError,
  claudeCodeCreateOptions,
  claudeCodeEngineContainer,
  DEFAULT_CONTAINER_LIMITS,
} from "./index.js";

const IMAGE = "debian:bookworm-slim";

/** Everything a spawned process says, until its exit. */
function collect(child: ClaudeSpawnedProcess) {
  let stdout = "";
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (data: string) => {
    stdout += data;
  });
  const errors: Error[] = [];
  child.on("error", (error) => errors.push(error));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  return { stdout: () => stdout, errors, exit };
}

const until = async (check: () => boolean, ms = 5_000) => {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

describe("the create options of Claude Code's container", () => {
  test("run_command's confinement, plus stdin, the program read-only, a private home, the SDK's environment", () => {
    const options = claudeCodeCreateOptions({
      image: IMAGE,
      workspace: "/work/ws",
      command: "/opt/claude/claude",
      args: ["--output-format", "stream-json"],
      env: {
        ANTHROPIC_API_KEY: "sk-ant-hand-written",
        PATH: "/host/only/bin",
        HOME: "/root",
        XDG_CONFIG_HOME: "/root/.config",
        UNSET: undefined,
      },
      readOnly: ["/opt/claude/claude"],
      network: "host",
      addHosts: ["gateway:10.0.0.1"],
      limits: { cpuSeconds: 60, memoryBytes: CLAUDE_CODE_MIN_ADDRESS_SPACE, maxProcesses: 256 },
      cpus: 1,
      identity: { user: "1000:1000" },
      podman: false,
    });
    expect(options).toMatchObject({
      Image: IMAGE,
      Entrypoint: ["/opt/claude/claude"],
      Cmd: ["--output-format", "stream-json"],
      WorkingDir: "/work/ws",
      User: "1000:1000",
      Labels: { [CLAUDE_CODE_CONTAINER_LABEL]: "true" },
      AttachStdin: true,
      OpenStdin: true,
      StdinOnce: true,
      Tty: false,
    });
    expect(options.Env).toEqual([
      "ANTHROPIC_API_KEY=sk-ant-hand-written",
      "LANG=C.UTF-8",
      `HOME=${CLAUDE_CODE_HOME}`,
      "TMPDIR=/tmp",
    ]);
    expect(options.HostConfig).toMatchObject({
      Init: true,
      ReadonlyRootfs: true,
      CapDrop: ["ALL"],
      SecurityOpt: ["no-new-privileges"],
      Privileged: false,
      NetworkMode: "host",
      ExtraHosts: [],
      Memory: CLAUDE_CODE_MIN_ADDRESS_SPACE,
      MemorySwap: CLAUDE_CODE_MIN_ADDRESS_SPACE,
      PidsLimit: 256,
      AutoRemove: false,
    });
    expect(options.HostConfig?.Mounts).toEqual([
      { Type: "bind", Source: "/work/ws", Target: "/work/ws", ReadOnly: false },
      { Type: "bind", Source: "/opt/claude/claude", Target: "/opt/claude/claude", ReadOnly: true },
    ]);
    expect(Object.keys(options.HostConfig?.Tmpfs ?? {})).toEqual(["/tmp", CLAUDE_CODE_HOME]);
    const bridge = claudeCodeCreateOptions({
      ...{ image: IMAGE, workspace: "/w", command: "claude", args: [], env: {}, readOnly: [] },
      ...{ network: "bridge", addHosts: ["gateway:10.0.0.1"], cpus: 1, identity: {}, podman: true },
      limits: { ...DEFAULT_CONTAINER_LIMITS },
    });
    expect(bridge.HostConfig).toMatchObject({ NetworkMode: "bridge", ExtraHosts: ["gateway:10.0.0.1"] });
    expect(bridge.HostConfig?.Ulimits?.map((limit) => limit.Name)).toEqual([
      "cpu",
      "core",
      "nofile",
      "nproc",
    ]);
  });
});

describe("Claude Code's container through the scripted engine", () => {
  let engine: ScriptedEngine;
  let workspace = "";
  const engineEnv = () => ({ CONTAINER_HOST: `unix://${engine.socketPath}` });

  beforeEach(async () => {
    workspace = await mkdtemp(join(tmpdir(), "karenina-claude-engine-"));
  });
  afterEach(async () => {
    await engine?.close();
    await rm(workspace, { recursive: true, force: true });
  });

  const start = (behave: Parameters<typeof startScriptedEngine>[0]) =>
    startScriptedEngine({ engineName: "Podman Engine", images: [IMAGE], ...behave });

  test("stdin and stdout go through the hijacked attach, nothing else on stdin; the exit is reported and the container removed", async () => {
    engine = await start({ behave: () => ({ echoStdin: true, status: 0 }) });
    const container = await claudeCodeEngineContainer({
      runtime: "podman",
      image: IMAGE,
      workspace,
      limits: { memoryBytes: 256 * 1024 ** 2, cpuSeconds: 30 },
      engineEnv: engineEnv(),
    });
    const child = container.spawn({
      command: "claude",
      args: ["--print"],
      env: { ANTHROPIC_API_KEY: "sk-ant-hand-written" },
      signal: new AbortController().signal,
    });
    const seen = collect(child);
    expect(child.exitCode).toBeNull();
    expect(child.killed).toBe(false);
    // Written before the container exists: it waits in stdin.
    child.stdin.write('{"type":"user"}\n');
    child.stdin.end();
    expect(await seen.exit).toEqual({ code: 0, signal: null });
    expect(seen.stdout()).toBe('{"type":"user"}\n');
    expect(child.exitCode).toBe(0);
    expect(seen.errors).toEqual([]);
    await container.dispose();
    expect(engine.alive()).toEqual([]);
    expect([...engine.stdin.values()]).toEqual(['{"type":"user"}\n']);
    expect(engine.requests).toContain("POST /containers/c1/attach?stream=1&stdin=1&stdout=1&stderr=1");
    expect(engine.requests).toContain("DELETE /containers/c1?force=true&v=true");
    const created = engine.created[0] ?? {};
    expect(created).toMatchObject({ Entrypoint: ["claude"], Cmd: ["--print"], WorkingDir: workspace });
    expect((created.HostConfig as { Memory: number }).Memory).toBe(CLAUDE_CODE_MIN_ADDRESS_SPACE);
    expect(container.lastCreateOptions?.Env).toContain("ANTHROPIC_API_KEY=sk-ant-hand-written");
    expect(container.failure).toBeNull();
  });

  test("kill sends the signal to the container; the exit carries it, and the container is removed", async () => {
    engine = await start({ behave: () => ({ stdout: "started\n" }) });
    const container = await claudeCodeEngineContainer({
      runtime: "podman",
      image: IMAGE,
      workspace,
      engineEnv: engineEnv(),
    });
    const child = container.spawn({
      command: "claude",
      args: [],
      env: {},
      signal: new AbortController().signal,
    });
    const seen = collect(child);
    await until(() => seen.stdout() === "started\n");
    expect(child.kill("SIGTERM")).toBe(true);
    expect(await seen.exit).toEqual({ code: null, signal: "SIGTERM" });
    expect(child.killed).toBe(true);
    expect(child.signalCode).toBe("SIGTERM");
    expect(child.kill("SIGKILL")).toBe(false);
    await container.dispose();
    expect(engine.requests).toContain("POST /containers/c1/kill?signal=SIGTERM");
    expect(engine.alive()).toEqual([]);
  });

  test("the SDK's abort signal kills the container, before or after it starts; dispose removes what is left", async () => {
    engine = await start({ behave: () => ({}) });
    const container = await claudeCodeEngineContainer({
      runtime: "podman",
      image: IMAGE,
      workspace,
      engineEnv: engineEnv(),
    });
    const abort = new AbortController();
    const running = container.spawn({ command: "claude", args: [], env: {}, signal: abort.signal });
    const seen = collect(running);
    await until(() => engine.requests.some((request) => request.endsWith("/start")));
    abort.abort();
    expect(await seen.exit).toEqual({ code: null, signal: "SIGKILL" });

    const early = new AbortController();
    early.abort();
    const never = container.spawn({ command: "claude", args: [], env: {}, signal: early.signal });
    const neverSeen = collect(never);
    expect(await neverSeen.exit).toEqual({ code: null, signal: "SIGKILL" });

    const left = container.spawn({
      command: "claude",
      args: [],
      env: {},
      signal: new AbortController().signal,
    });
    const leftSeen = collect(left);
    await until(() => engine.requests.filter((request) => request.endsWith("/start")).length === 2);
    await container.dispose();
    expect(await leftSeen.exit).toEqual({ code: null, signal: "SIGKILL" });
    expect(engine.alive()).toEqual([]);
    expect(engine.created).toHaveLength(3);
  });

  test("an engine that stops answering: the spawn reports an error, and the session's failure is the backend's", async () => {
    engine = await start({});
    const container = await claudeCodeEngineContainer({
      runtime: "podman",
      image: IMAGE,
      workspace,
      engineEnv: engineEnv(),
    });
    await engine.close();
    const child = container.spawn({
      command: "claude",
      args: [],
      env: {},
      signal: new AbortController().signal,
    });
    const seen = collect(child);
    await until(() => seen.errors.length > 0);
    expect(seen.errors[0]).toBeInstanceOf(ContainerBackendUnavailableError);
    expect(seen.errors[0]?.message).toMatch(
      /container backend podman is unavailable: Podman could not start Claude Code in image debian:bookworm-slim/,
    );
    expect(container.failure).toBe(seen.errors[0]);
    await container.dispose();
  });

  test("no engine, a missing image, or Docker answering for Podman: the container is refused before any session", async () => {
    engine = await start({ engineName: "Engine" });
    await expect(
      claudeCodeEngineContainer({ runtime: "podman", image: IMAGE, workspace, engineEnv: engineEnv() }),
    ).rejects.toThrow(/is answered by Docker, not Podman/);
    await expect(
      claudeCodeEngineContainer({
        runtime: "docker",
        image: "karenina/absent:1",
        workspace,
        engineEnv: { DOCKER_HOST: `unix://${engine.socketPath}` },
      }),
    ).rejects.toThrow(/image karenina\/absent:1 is not on the engine and could not be pulled/);
    await expect(
      claudeCodeEngineContainer({
        runtime: "podman",
        image: IMAGE,
        workspace,
        engineEnv: { CONTAINER_HOST: "unix:///nonexistent/karenina/podman.sock" },
      }),
    ).rejects.toBeInstanceOf(ContainerBackendUnavailableError);
  });
});

describe("the deep agent asked to run in Podman where there is none", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  test("the run fails with ContainerBackendUnavailableError and never starts Claude Code on the host", async () => {
    vi.stubEnv("CONTAINER_HOST", "unix:///nonexistent/karenina/podman.sock");
    const workspace = await mkdtemp(join(tmpdir(), "karenina-claude-noengine-"));
    try {
      const port = claudeAgentPort({
        modelName: "claude-sonnet-4-5",
        apiKey: "sk-ant-hand-written-test-key",
        baseURL: "http://127.0.0.1:9",
        env: { PATH: process.env.PATH },
        pathToClaudeCodeExecutable: "/nonexistent/claude",
        container: { backend: "podman", image: IMAGE },
      });
      const run = port.run([userMessage("hi")], { workingDir: workspace });
      await expect(run).rejects.toBeInstanceOf(ContainerBackendUnavailableError);
      await expect(run).rejects.toThrow(/cannot reach Podman's API service at unix:\/\/\/nonexistent/);
      expect(await readdir(workspace)).toEqual([]);
    } finally {
      await rm(workspace, { recursive: true, force: true });
    }
  });
});

const podman = containerEngineForTests();
const binary = process.platform === "linux" ? claudeBinary() : null;
const realSkip =
  podman.skipReason ??
  (binary === null
    ? "the Claude Code binary of the Claude Agent SDK is not installed for this platform"
    : null);

const SLEEP_MARKER = sleepMarker(986_000);
const WRITE_THEN_READ_HOST_FILE = writeThenReadHostFile(SLEEP_MARKER);

/**
 * Host files bound read-only into the test image (busybox and node): the libraries Claude Code links that the
 * image lacks (librt), and bash, which Claude Code's Bash tool runs, with its libraries. An image such as
 * debian:bookworm-slim has them all.
 */
function hostExtras(claude: string): string[] {
  const libraries = (program: string) =>
    [...execFileSync("ldd", [program], { encoding: "utf8" }).matchAll(/(\/\S+)/g)].map((m) => m[1] as string);
  return [...new Set([...libraries(claude), "/bin/bash", ...libraries("/bin/bash")])];
}

describe.skipIf(realSkip !== null)(
  `the deep agent in a real Podman container (${realSkip ?? "real Claude Code"})`,
  () => {
    let dir = "";
    let paths: Paths;
    let hostHome = "";
    let server: Awaited<ReturnType<typeof startScriptedClaudeServer>>;

    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), "karenina-claude-podman-"));
    });
    afterAll(async () => {
      await rm(dir, { recursive: true, force: true });
    });
    beforeEach(async () => {
      vi.stubEnv("CONTAINER_HOST", `unix://${podman.socketPath}`);
      const run = await mkdtemp(join(dir, "run-"));
      paths = { workspace: join(run, "workspace"), secret: join(run, "host-secret.txt") };
      hostHome = join(run, "home");
      await mkdir(paths.workspace);
      await mkdir(hostHome);
      await writeFile(paths.secret, "HOST-SECRET-5c1d\n");
      server = await startScriptedClaudeServer(WRITE_THEN_READ_HOST_FILE, paths);
    });
    afterEach(async () => {
      vi.unstubAllEnvs();
      await server.close();
    });

    test("Claude Code writes in the workspace, cannot read a host file outside it, and leaves no container, process or home behind", async () => {
      const port = claudeAgentPort({
        modelName: "claude-sonnet-4-5",
        apiKey: "sk-ant-hand-written-test-key",
        baseURL: server.url,
        env: {
          PATH: process.env.PATH,
          HOME: hostHome,
          CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
          DISABLE_AUTOUPDATER: "1",
        },
        timeoutMs: 120_000,
        container: {
          backend: "podman",
          image: podman.image ?? "",
          readOnlyPaths: hostExtras(binary ?? ""),
        },
      });
      const result = await port.run([userMessage("What is the target of venetoclax?")], {
        workingDir: paths.workspace,
      });
      expect(result.finalResponse).toContain("BCL2");
      expect(await readFile(join(paths.workspace, "answer.txt"), "utf8")).toBe("BCL2\n");
      const bash = server.toolResults[1] ?? "";
      expect(bash).toContain("No such file or directory");
      expect(bash).not.toContain("HOST-SECRET-5c1d");
      expect(bash).toContain(`home=${CLAUDE_CODE_HOME}`);
      expect(await readdir(hostHome)).toEqual([]);
      const docker = new Docker({ socketPath: podman.socketPath ?? "" });
      const left = await docker.listContainers({
        all: true,
        filters: { label: [CLAUDE_CODE_CONTAINER_LABEL] },
      });
      expect(left).toEqual([]);
      expect(await processesWith(SLEEP_MARKER)).toEqual([]);
    }, 180_000);
  },
);
