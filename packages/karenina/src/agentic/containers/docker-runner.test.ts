/**
 * The Docker backend (and Podman's, through the same API). Three layers: how the engine is found and the
 * clear error when it does not answer (real sockets, no daemon needed); the backend's use of the Engine API
 * against a scripted engine on a unix socket (see __fixtures__/scripted-engine.ts); and, where a daemon and
 * the test image are present, every escape an agent's command may try, contained by a real container: a
 * Docker daemon if one is here, else the test run's Podman engine (test-support/container-engine.ts), as both
 * runtimes (Podman answering the Docker API too).
 */
import { existsSync } from "node:fs";
import { mkdtemp, readFile, realpath, rm, stat, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi } from "vitest";
import { containerEngineForTests } from "../../test-support/container-engine.js";
import type { CommandRunLimits, RunCommandOutput } from "../tools/index.js";
import { type ScriptedEngine, startScriptedEngine } from "./__fixtures__/scripted-engine.js";
import { connectEngine, type DockerRuntime, daemonEndpoint, engineKind } from "./docker-daemon.js";
import { CONTAINER_LABEL, dockerRunner } from "./docker-runner.js";
import { ContainerBackendUnavailableError } from "./errors.js";

const LIMITS: CommandRunLimits = { commandOutputBytes: 64 * 1024, commandTimeoutMs: 20_000 };

/** A 127.0.0.1 port nothing listens on (it was just closed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("finding the engine", () => {
  const none = () => false;
  test("Docker: DOCKER_HOST first, else the user's or the system's socket", () => {
    expect(daemonEndpoint("docker", { DOCKER_HOST: "tcp://10.0.0.5:2376" }, none)).toEqual({
      kind: "docker-host",
      shown: "tcp://10.0.0.5:2376",
    });
    expect(daemonEndpoint("docker", { DOCKER_HOST: "unix:///srv/d.sock" }, none)).toMatchObject({
      kind: "socket",
      socketPath: "/srv/d.sock",
    });
    expect(daemonEndpoint("docker", {}, none)).toMatchObject({ socketPath: "/var/run/docker.sock" });
    const user = (path: string) => path.endsWith(join(".docker", "run", "docker.sock"));
    expect(daemonEndpoint("docker", {}, user).shown).toMatch(/\.docker\/run\/docker\.sock$/);
  });

  test("Podman: CONTAINER_HOST, else the user's socket, the system's, then DOCKER_HOST", () => {
    const env = { XDG_RUNTIME_DIR: "/run/user/1000", DOCKER_HOST: "unix:///var/run/docker.sock" };
    expect(daemonEndpoint("podman", { ...env, CONTAINER_HOST: "unix:///tmp/p.sock" }, none)).toMatchObject({
      socketPath: "/tmp/p.sock",
    });
    const userSocket = (path: string) => path === "/run/user/1000/podman/podman.sock";
    expect(daemonEndpoint("podman", env, userSocket)).toMatchObject({
      socketPath: "/run/user/1000/podman/podman.sock",
    });
    const systemSocket = (path: string) => path === "/run/podman/podman.sock";
    expect(daemonEndpoint("podman", env, systemSocket)).toMatchObject({
      socketPath: "/run/podman/podman.sock",
    });
    expect(daemonEndpoint("podman", env, none)).toMatchObject({ socketPath: "/var/run/docker.sock" });
    expect(daemonEndpoint("podman", {}, none)).toMatchObject({ socketPath: "/run/podman/podman.sock" });
  });

  test("a CONTAINER_HOST that is not a unix socket is refused with what to do", () => {
    expect(() => daemonEndpoint("podman", { CONTAINER_HOST: "ssh://core@host/run/podman.sock" })).toThrow(
      /CONTAINER_HOST=ssh:\/\/core@host\/run\/podman\.sock is not a unix socket/,
    );
  });

  test("the engine's kind comes from its version's components and its security options", () => {
    expect(
      engineKind({ Components: [{ Name: "Podman Engine" }] }, { SecurityOptions: ["name=rootless"] }),
    ).toEqual({
      podman: true,
      rootless: true,
    });
    expect(engineKind({ Components: [{ Name: "Engine" }] }, { SecurityOptions: ["name=seccomp"] })).toEqual({
      podman: false,
      rootless: false,
    });
  });
});

describe("an engine that is asked for and does not answer fails the task, never falling back", () => {
  test("DOCKER_HOST at a closed 127.0.0.1 port", async () => {
    const port = await closedPort();
    vi.stubEnv("DOCKER_HOST", `tcp://127.0.0.1:${port}`);
    const error = await dockerRunner({ image: "python:3.12-slim" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContainerBackendUnavailableError);
    expect((error as Error).message).toMatch(
      new RegExp(
        `^container backend docker is unavailable: cannot reach the Docker daemon at tcp://127\\.0\\.0\\.1:${port} ` +
          "\\(.*ECONNREFUSED.*\\): start the Docker daemon, or set DOCKER_HOST",
      ),
    );
    expect((error as Error).message).toContain("never fall back to another backend");
  });

  test("DOCKER_HOST at a socket path that does not exist", async () => {
    const missing = join(tmpdir(), `karenina-no-daemon-${process.pid}`, "docker.sock");
    vi.stubEnv("DOCKER_HOST", `unix://${missing}`);
    await expect(dockerRunner({ image: "alpine" })).rejects.toThrow(
      `cannot reach the Docker daemon at unix://${missing} (connect ENOENT ${missing})`,
    );
  });

  test("Podman: CONTAINER_HOST at a missing socket names Podman's socket service", async () => {
    const missing = join(tmpdir(), `karenina-no-podman-${process.pid}`, "podman.sock");
    vi.stubEnv("CONTAINER_HOST", `unix://${missing}`);
    const error = await dockerRunner({ runtime: "podman", image: "alpine" }).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(
      /^container backend podman is unavailable: cannot reach Podman's API service at unix:\/\/.*\(connect ENOENT .*systemctl --user start podman\.socket/,
    );
  });
});

describe("the backend's use of the Engine API (a scripted engine)", () => {
  let engine: ScriptedEngine;
  let ws = "";
  beforeEach(async () => {
    ws = await realpath(await mkdtemp(join(tmpdir(), "karenina-docker-ws-")));
  });
  afterEach(async () => {
    await engine?.close();
    await rm(ws, { recursive: true, force: true });
  });
  const useEngine = async (options: Parameters<typeof startScriptedEngine>[0]) => {
    engine = await startScriptedEngine(options);
    vi.stubEnv("DOCKER_HOST", `unix://${engine.socketPath}`);
    vi.stubEnv("CONTAINER_HOST", `unix://${engine.socketPath}`);
  };

  test("Podman asked for and Docker answering is refused", async () => {
    await useEngine({ engineName: "Engine", images: ["alpine"] });
    await expect(dockerRunner({ runtime: "podman", image: "alpine" })).rejects.toThrow(
      "is answered by Docker, not Podman",
    );
  });

  test("a missing image is pulled, and one that cannot be pulled fails the task before any command", async () => {
    await useEngine({ images: [] });
    const error = await dockerRunner({ image: "private/tools:1" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContainerBackendUnavailableError);
    expect((error as Error).message).toContain(
      "image private/tools:1 is not on the engine and could not be pulled (pull access denied: the scripted engine has no registry)",
    );
    expect(engine.requests).toContain("POST /images/create?fromImage=private%2Ftools&tag=1");
    expect(engine.created).toEqual([]);
  });

  test("a command's output is read from its container, which is created as built and removed afterwards", async () => {
    await useEngine({
      images: ["node:20-slim"],
      behave: () => ({ stdout: "made\n", stderr: "warn\n", status: 3 }),
    });
    const runner = await dockerRunner({ image: "node:20-slim", limits: { maxProcesses: 32 } });
    expect(runner).toMatchObject({ name: "docker", sandboxed: true });
    expect(runner.description).toContain("Docker container of image node:20-slim");
    expect(runner.description).toContain("there is no network");
    const out = await runner.run(ws, { command: "node", args: ["x.js"] }, LIMITS);
    expect(out).toEqual({
      exit_code: 3,
      signal: null,
      stdout: "made\n",
      stderr: "warn\n",
      timed_out: false,
      output_truncated: false,
    });
    const [create] = engine.created;
    expect(create).toMatchObject({
      Image: "node:20-slim",
      Entrypoint: ["node"],
      Cmd: ["x.js"],
      WorkingDir: ws,
      User: `${process.getuid?.()}:${process.getgid?.()}`,
      Labels: { [CONTAINER_LABEL]: "true" },
      HostConfig: { NetworkMode: "none", PidsLimit: 32, ReadonlyRootfs: true, CapDrop: ["ALL"] },
    });
    expect(engine.requests.slice(4)).toEqual([
      expect.stringMatching(/^POST \/containers\/create\?name=karenina-cmd-[0-9a-f]{12}$/),
      "POST /containers/c1/attach?stream=true&stdout=true&stderr=true",
      "POST /containers/c1/start",
      "POST /containers/c1/wait",
      "GET /containers/c1/json",
      "DELETE /containers/c1?force=true&v=true",
    ]);
    expect(engine.alive()).toEqual([]);
  });

  test("rootless Podman runs the command as the user in a keep-id namespace", async () => {
    await useEngine({ engineName: "Podman Engine", rootless: true, images: ["alpine"] });
    const runner = await dockerRunner({ runtime: "podman", image: "alpine" });
    expect(runner.name).toBe("podman");
    await runner.run(ws, { command: "true" }, LIMITS);
    expect(engine.created[0]).toMatchObject({
      User: `${process.getuid?.()}:${process.getgid?.()}`,
      HostConfig: { UsernsMode: "keep-id" },
    });
  });

  test("past the wall-clock limit the container is killed and removed", async () => {
    await useEngine({ images: ["alpine"], behave: () => ({ stdout: "started\n" }) });
    const runner = await dockerRunner({ image: "alpine" });
    const out = await runner.run(
      ws,
      { command: "sleep", args: ["600"] },
      { ...LIMITS, commandTimeoutMs: 300 },
    );
    expect(out).toMatchObject({
      timed_out: true,
      signal: "SIGKILL",
      limit: "wall_clock",
      stdout: "started\n",
    });
    expect(engine.requests).toContain("POST /containers/c1/kill");
    expect(engine.alive()).toEqual([]);
  });

  test("an abort kills the container at once", async () => {
    await useEngine({ images: ["alpine"], behave: () => ({}) });
    const runner = await dockerRunner({ image: "alpine" });
    const controller = new AbortController();
    const running = runner.run(ws, { command: "sleep", args: ["600"] }, LIMITS, controller.signal);
    setTimeout(() => controller.abort(), 100);
    expect(await running).toMatchObject({ timed_out: false, signal: "SIGKILL" });
    expect(engine.alive()).toEqual([]);
  });

  test.each([
    [
      { status: 137, oomKilled: true },
      "memory",
      "The command ran out of memory: the container allows 512 MB.",
    ],
    [{ status: 152 }, "cpu_time", "The command used its 60 s of CPU time and was stopped."],
    [
      { status: 254, stderr: "sh: can't fork: Resource temporarily unavailable\n" },
      "processes",
      "The command could not start more processes: the container allows 256 at once.",
    ],
  ])("a command stopped by a limit (%j) says which one", async (script, limit, note) => {
    await useEngine({ images: ["alpine"], behave: () => script });
    const runner = await dockerRunner({ image: "alpine", limits: { memoryBytes: 512 * 1024 ** 2 } });
    expect(await runner.run(ws, { command: "sh" }, LIMITS)).toMatchObject({ limit, note });
  });

  test("output past the byte limit is cut and said to be", async () => {
    await useEngine({ images: ["alpine"], behave: () => ({ stdout: "x".repeat(5000), status: 0 }) });
    const runner = await dockerRunner({ image: "alpine" });
    const out = await runner.run(ws, { command: "yes" }, { ...LIMITS, commandOutputBytes: 1000 });
    expect(out.stdout).toHaveLength(1000);
    expect(out.output_truncated).toBe(true);
  });
});

// ---- With a real engine -------------------------------------------------------------------------------

/** One engine the attacks run against: the runtime asked for, the environment that reaches it, its image. */
interface RealEngine {
  runtime: DockerRuntime;
  title: string;
  env: Record<string, string>;
  image: string;
}

const DOCKER_IMAGE = process.env.KARENINA_TEST_DOCKER_IMAGE ?? "node:20-slim";
const podmanEngine = containerEngineForTests();

/** A real Docker daemon, when one answers (not Podman) and has the test image; else why not. */
async function realDocker(): Promise<RealEngine | string> {
  let connected: Awaited<ReturnType<typeof connectEngine>>;
  try {
    connected = await connectEngine("docker", process.env);
  } catch (error) {
    const message = (error as Error).message;
    return `no Docker daemon answers: ${/cannot reach .*? \(.*?\)(?=:)/.exec(message)?.[0] ?? message}`;
  }
  if (connected.engine.podman) return "DOCKER_HOST is answered by Podman";
  try {
    await connected.docker.getImage(DOCKER_IMAGE).inspect();
  } catch {
    // Tests never pull (no network but 127.0.0.1): the image must be there already.
    return `the daemon has no image ${DOCKER_IMAGE} (docker pull ${DOCKER_IMAGE}, or set KARENINA_TEST_DOCKER_IMAGE)`;
  }
  return { runtime: "docker", title: "a Docker daemon", env: {}, image: DOCKER_IMAGE };
}

/**
 * The engines to attack: as runtime "docker", a real Docker daemon if one is here with the image, else the
 * test run's Podman engine answering the Docker API (DOCKER_HOST); as runtime "podman", that engine
 * (CONTAINER_HOST). Each with the reason when it is missing.
 */
async function realEngines(): Promise<
  { engine: RealEngine | null; skipReason: string | null; title: string }[]
> {
  const docker = await realDocker();
  const socket = podmanEngine.socketPath === null ? null : `unix://${podmanEngine.socketPath}`;
  const viaPodman = (runtime: DockerRuntime, variable: string, title: string) =>
    socket === null || podmanEngine.image === null
      ? { engine: null, skipReason: podmanEngine.skipReason, title }
      : {
          engine: { runtime, title, env: { [variable]: socket }, image: podmanEngine.image },
          skipReason: null,
          title,
        };
  const dockerTitle = "runtime docker against Podman's Docker API";
  return [
    typeof docker === "string"
      ? viaPodman("docker", "DOCKER_HOST", dockerTitle)
      : { engine: docker, skipReason: null, title: "runtime docker against a Docker daemon" },
    viaPodman("podman", "CONTAINER_HOST", "runtime podman"),
  ];
}

for (const { engine, skipReason, title } of await realEngines()) {
  const SKIP = skipReason === null ? "" : ` (skipped: ${skipReason})`;
  describe.skipIf(engine === null)(`run_command in a real container, ${title}${SKIP}`, () => {
    const { runtime, image, env }: Pick<RealEngine, "runtime" | "image" | "env"> = engine ?? {
      runtime: "docker",
      image: "",
      env: {},
    };
    const runnerFor = (options: Omit<Parameters<typeof dockerRunner>[0], "image" | "runtime"> = {}) =>
      dockerRunner({ runtime, image, ...options });
    let ws = "";
    let outside = "";
    let listener: Server;
    let port = 0;
    beforeAll(async () => {
      listener = createServer((socket) => socket.end("hello\n"));
      await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
      port = (listener.address() as { port: number }).port;
    });
    afterAll(() => new Promise<void>((resolve) => listener.close(() => resolve())));
    beforeEach(async () => {
      for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
      ws = await realpath(await mkdtemp(join(tmpdir(), "karenina-docker-ws-")));
      outside = await realpath(await mkdtemp(join(tmpdir(), "karenina-docker-host-")));
      await writeFile(join(outside, "secret.txt"), "host secret 42\n");
    });
    afterEach(async () => {
      await rm(ws, { recursive: true, force: true });
      await rm(outside, { recursive: true, force: true });
    });

    const run = (runner: Awaited<ReturnType<typeof dockerRunner>>, command: string, ...args: string[]) =>
      runner.run(ws, { command, args }, LIMITS) as Promise<RunCommandOutput>;

    /** Containers of ours the engine still has. */
    async function leftBehind(): Promise<number> {
      const { docker } = await connectEngine(runtime, process.env);
      return (await docker.listContainers({ all: true, filters: { label: [CONTAINER_LABEL] } })).length;
    }

    test("a write in the workspace is seen on the host, owned by the user; nothing is left behind", async () => {
      const runner = await runnerFor();
      expect(runner.name).toBe(runtime);
      const out = await run(runner, "sh", "-c", "echo made inside > made.txt && pwd");
      expect(out).toMatchObject({ exit_code: 0, stdout: `${ws}\n` });
      expect(await readFile(join(ws, "made.txt"), "utf8")).toBe("made inside\n");
      expect((await stat(join(ws, "made.txt"))).uid).toBe(process.getuid?.());
      expect(await leftBehind()).toBe(0);
    });

    test("host files outside the workspace are not there; the system is read-only; /tmp is private", async () => {
      const runner = await runnerFor();
      const secret = await run(runner, "cat", join(outside, "secret.txt"));
      expect(secret.exit_code).not.toBe(0);
      expect(secret.stderr).toContain("No such file or directory");
      const system = await run(runner, "touch", "/usr/planted");
      expect(system.stderr).toContain("Read-only file system");
      const marker = `karenina-private-${process.pid}-${Date.now()}`;
      expect((await run(runner, "touch", `/tmp/${marker}`)).exit_code).toBe(0);
      expect(existsSync(join("/tmp", marker))).toBe(false);
    });

    test("the host's own files are not there: its /etc/shadow, this repository, the engine's socket", async () => {
      const runner = await runnerFor();
      const hostShadow = await readFile("/etc/shadow", "utf8").catch(() => null);
      const shadow = await run(runner, "cat", "/etc/shadow");
      if (hostShadow !== null && hostShadow.trim() !== "") expect(shadow.stdout).not.toBe(hostShadow);
      const repository = await run(runner, "cat", join(process.cwd(), "package.json"));
      expect(repository).toMatchObject({ exit_code: 1, stdout: "" });
      expect(repository.stderr).toContain("No such file or directory");
      const reached: Record<string, string | undefined> = { ...process.env, ...env };
      const endpoint = reached.CONTAINER_HOST ?? reached.DOCKER_HOST ?? "unix:///var/run/docker.sock";
      const socket = await run(runner, "ls", endpoint.replace(/^unix:\/\//, ""));
      expect(socket.exit_code).not.toBe(0);
    });

    test("the workspace is the only writable mount from the host's disks; the engine's binds are read-only", async () => {
      const runner = await runnerFor();
      const mounts = await run(runner, "cat", "/proc/mounts");
      const VIRTUAL = new Set(["tmpfs", "proc", "sysfs", "devpts", "mqueue", "cgroup", "cgroup2", "shm"]);
      const writable = mounts.stdout
        .trim()
        .split("\n")
        .map((line) => line.split(" "))
        .filter(
          ([, , type, options]) => !VIRTUAL.has(type ?? "") && (options ?? "").split(",").includes("rw"),
        )
        .map(([, point]) => point);
      expect(writable).toEqual([ws]);
      const planted = await run(
        runner,
        "sh",
        "-c",
        "for f in /etc/hosts /etc/resolv.conf /etc/hostname; do [ ! -e $f ] || echo planted >> $f; done; " +
          "cat /etc/hosts /etc/resolv.conf /etc/hostname 2>/dev/null",
      );
      expect(planted.stdout).not.toContain("planted");
      expect(planted.stderr).toMatch(/Read-only file system/);
    });

    test("no privilege: mounting, changing owners and seeing host processes all fail", async () => {
      const runner = await runnerFor();
      const mount = await run(runner, "mount", "-t", "tmpfs", "none", ws);
      expect(mount.exit_code).not.toBe(0);
      await writeFile(join(ws, "mine.txt"), "x");
      const chown = await run(runner, "chown", "12345", "mine.txt");
      expect(chown.exit_code).not.toBe(0);
      expect((await stat(join(ws, "mine.txt"))).uid).toBe(process.getuid?.());
      const processes = await run(runner, "sh", "-c", "cat /proc/[0-9]*/cmdline | tr '\\0' ' '");
      expect(processes.stdout).not.toContain("vitest");
    });

    test("there is no network: a listener on the host cannot be reached", async () => {
      const runner = await runnerFor();
      const out = await run(
        runner,
        "node",
        "-e",
        `require("net").connect(${port}, "127.0.0.1").on("connect", () => process.exit(0)).on("error", (e) => { console.error(e.code); process.exit(3); })`,
      );
      expect(out.exit_code).toBe(3);
      expect(out.stderr).toMatch(/ECONNREFUSED|ENETUNREACH/);
    });

    test("a fork bomb is bounded by the process limit and the next command runs", async () => {
      const runner = await runnerFor({ limits: { maxProcesses: 32 } });
      const out = await runner.run(
        ws,
        { command: "sh", args: ["-c", "f() { f | f & }; f; sleep 2; echo done"] },
        { ...LIMITS, commandTimeoutMs: 8_000 },
      );
      expect(out.limit === "processes" || out.limit === "wall_clock").toBe(true);
      expect((await run(runner, "echo", "after the bomb")).stdout).toBe("after the bomb\n");
      expect(await leftBehind()).toBe(0);
    });

    test("a command past the memory limit is stopped with a memory note", async () => {
      const runner = await runnerFor({ limits: { memoryBytes: 256 * 1024 ** 2 } });
      const out = await run(runner, "node", "-e", "const a = []; for (;;) a.push(Buffer.alloc(1e7, 1));");
      expect(out).toMatchObject({ exit_code: null, signal: "SIGKILL", timed_out: false, limit: "memory" });
      expect(out.note).toMatch(/out of memory.*256 MB/);
    });

    test("past the wall-clock limit the container is killed and removed", async () => {
      const runner = await runnerFor();
      const started = Date.now();
      const out = await runner.run(
        ws,
        { command: "sleep", args: ["60"] },
        { ...LIMITS, commandTimeoutMs: 1_000 },
      );
      expect(out).toMatchObject({ timed_out: true, limit: "wall_clock" });
      expect(Date.now() - started).toBeLessThan(20_000);
      expect(await leftBehind()).toBe(0);
    });
  });
}
