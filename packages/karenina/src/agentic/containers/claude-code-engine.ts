/**
 * The deep agent's Docker or Podman container: Claude Code (started by the Claude Agent SDK through its
 * `spawnClaudeCodeProcess` hook) runs in a fresh container of the model's image, made through the engine's API
 * by the same create options as `run_command`'s containers (see {@link dockerCreateOptions}) with what a long
 * interactive session needs on top: stdin attached, its program bound read-only, a private home, the network
 * Claude Code reaches its model over.
 */
import { randomUUID } from "node:crypto";
import { EventEmitter } from "node:events";
import { request as httpRequest, type RequestOptions } from "node:http";
import { type RequestOptions as HttpsRequestOptions, request as httpsRequest } from "node:https";
import { isAbsolute } from "node:path";
import type { Duplex } from "node:stream";
import { PassThrough, Writable } from "node:stream";
import type Dockerode from "dockerode";
import {
  CLAUDE_CODE_HOME,
  CLAUDE_CODE_MIN_ADDRESS_SPACE,
  type ClaudeCodeSandbox,
  type ClaudeSpawnedProcess,
  type ClaudeSpawnRequest,
  claudeProgramMounts,
  HOST_PATH_VARIABLES,
  scriptMounts,
} from "./claude-code-container.js";
import { delay, initExit, streamEnd } from "./container-exit.js";
import { type ContainerIdentity, containerIdentity, dockerCreateOptions } from "./docker-create-options.js";
import {
  type ConnectedEngine,
  connectEngine,
  type DockerRuntime,
  describeError,
  ensureImage,
  isStatus,
} from "./docker-daemon.js";
import { ContainerBackendUnavailableError } from "./errors.js";
import { type ContainerLimits, DEFAULT_CONTAINER_LIMITS } from "./limits.js";

/**
 * The network of the deep agent's container. Claude Code cannot work without reaching its model, so there is
 * no `none`: `host` shares the host's network (as bubblewrap does; a base URL on the host's 127.0.0.1 works),
 * `bridge` gives the engine's bridge network (the model API must be reachable from it: a public address, or a
 * host name added with `addHosts`, e.g. `gateway:host-gateway`).
 */
export type ClaudeCodeNetwork = "host" | "bridge";

/** How {@link claudeCodeEngineContainer} confines Claude Code. */
export interface ClaudeCodeEngineOptions {
  /** Docker, or Podman through its Docker-compatible API socket. */
  runtime: DockerRuntime;
  /** The image (`agent_runtime.container_image`): any glibc image with bash, e.g. `debian:bookworm-slim`. */
  image: string;
  /** The workspace: bound read-write at its own path, Claude Code's working directory. */
  workspace: string;
  /** Default `host`. */
  network?: ClaudeCodeNetwork;
  /** `name:address` entries for the container's /etc/hosts (bridge network only). */
  addHosts?: readonly string[];
  /** CPU time, memory and process count; those of `run_command` by default, memory at least 2 GB. */
  limits?: Partial<ContainerLimits>;
  /** CPUs Claude Code may use at once; default 1. */
  cpus?: number;
  /**
   * More host paths bound read-only at their own path (e.g. a library the image lacks). Nothing else of the
   * host is visible.
   */
  readOnlyPaths?: readonly string[];
  /** Receives Claude Code's stderr (the SDK does not read it from a custom spawn). */
  stderr?: (data: string) => void;
  /** Where the engine is found (DOCKER_HOST, CONTAINER_HOST, XDG_RUNTIME_DIR); default `process.env`. */
  engineEnv?: NodeJS.ProcessEnv;
}

/** A Claude Code session's Docker or Podman container. */
export interface ClaudeCodeEngineContainer extends ClaudeCodeSandbox {
  /** The create options of the last spawn (for tests and diagnostics). */
  readonly lastCreateOptions: Dockerode.ContainerCreateOptions | null;
}

/** The label every deep-agent container carries, to find any left behind: `docker ps -a --filter label=...`. */
export const CLAUDE_CODE_CONTAINER_LABEL = "org.karenina.deep-agent";

/** The size of the private home's tmpfs, in MB (it counts against the memory limit). */
const HOME_TMPFS_MB = 256;
/** How long the output stream may trail the container's exit. */
const OUTPUT_GRACE_MS = 2_000;

/** What one Claude Code container is made of. */
export interface ClaudeCodeCreateSpec {
  image: string;
  workspace: string;
  /** The program (absolute, bound read-only; or a name the image's PATH resolves) and its arguments. */
  command: string;
  args: readonly string[];
  /** The environment the SDK gives (its key included). */
  env: Readonly<Record<string, string | undefined>>;
  /** Host paths bound read-only at their own path. */
  readOnly: readonly string[];
  network: ClaudeCodeNetwork;
  addHosts: readonly string[];
  limits: ContainerLimits;
  cpus: number;
  identity: ContainerIdentity;
  /** The engine is Podman (see `dockerCreateOptions`). */
  podman: boolean;
}

/**
 * The environment inside: the SDK's, less the image-specific PATH (the image's own is kept) and the variables
 * pointing at host folders, with HOME the private home and TMPDIR the private /tmp.
 */
function containerEnv(env: Readonly<Record<string, string | undefined>>): string[] {
  const dropped = new Set(["PATH", "HOME", "TMPDIR", ...HOST_PATH_VARIABLES]);
  const entries = Object.entries(env).filter(
    (entry): entry is [string, string] =>
      entry[1] !== undefined && !dropped.has(entry[0]) && !entry[0].includes("="),
  );
  const out = entries.map(([name, value]) => `${name}=${value}`);
  if (env.LANG === undefined) out.push("LANG=C.UTF-8");
  return [...out, `HOME=${CLAUDE_CODE_HOME}`, "TMPDIR=/tmp"];
}

/**
 * The Engine API's create options of a Claude Code container: `run_command`'s ({@link dockerCreateOptions}:
 * the workspace read-write at its own path and the working directory, the root file system read-only, a
 * private /tmp, every capability dropped, no new privileges, memory without swap, CPU rate, CPU time, process
 * and core-dump limits, an init, no daemon log, as the user running karenina) with: stdin open (the SDK talks
 * to Claude Code over it; closed when the client closes its side), the program and `readOnly` bound read-only
 * at their own paths, a private home in its own tmpfs, the SDK's environment, the chosen network.
 */
export function claudeCodeCreateOptions(spec: ClaudeCodeCreateSpec): Dockerode.ContainerCreateOptions {
  const base = dockerCreateOptions({
    image: spec.image,
    workspace: spec.workspace,
    command: spec.command,
    args: spec.args,
    network: spec.network === "bridge",
    addHosts: spec.network === "bridge" ? spec.addHosts : [],
    limits: spec.limits,
    cpus: spec.cpus,
    identity: spec.identity,
    podman: spec.podman,
    labels: { [CLAUDE_CODE_CONTAINER_LABEL]: "true" },
  });
  const hostConfig = base.HostConfig ?? {};
  const memoryMb = Math.max(1, Math.floor(spec.limits.memoryBytes / 1024 ** 2));
  return {
    ...base,
    Env: containerEnv(spec.env),
    AttachStdin: true,
    OpenStdin: true,
    StdinOnce: true,
    HostConfig: {
      ...hostConfig,
      Mounts: [
        ...(hostConfig.Mounts ?? []),
        ...spec.readOnly.map((path) => ({
          Type: "bind" as const,
          Source: path,
          Target: path,
          ReadOnly: true,
        })),
      ],
      Tmpfs: {
        ...hostConfig.Tmpfs,
        [CLAUDE_CODE_HOME]: `rw,nosuid,nodev,size=${Math.min(HOME_TMPFS_MB, memoryMb)}m`,
      },
      NetworkMode: spec.network,
    },
  };
}

/** The fields of the client's connection that a hijacked request needs. */
interface ModemConnection {
  socketPath?: string | (() => string | Promise<string>);
  host?: string;
  port?: number | string;
  protocol?: string;
  version?: string;
  ca?: unknown;
  cert?: unknown;
  key?: unknown;
}

/**
 * Attaches to the container's stdin, stdout and stderr as the Docker CLI does: a POST with no body upgraded to
 * the raw connection. (The client library's own attach sends its options as a JSON body, which the engine
 * hands to the container's stdin, and cannot send none.)
 */
async function attachHijacked(docker: Dockerode, id: string): Promise<Duplex> {
  const modem = docker.modem as ModemConnection;
  if (modem.protocol === "ssh") {
    throw new Error("the deep agent reaches the engine through a unix socket or tcp DOCKER_HOST, not ssh");
  }
  const socketPath = typeof modem.socketPath === "function" ? await modem.socketPath() : modem.socketPath;
  const version = modem.version === undefined ? "" : `/${modem.version.replace(/^\/|\/$/g, "")}`;
  const path = `${version}/containers/${encodeURIComponent(id)}/attach?stream=1&stdin=1&stdout=1&stderr=1`;
  const tls = modem.protocol === "https";
  const target: RequestOptions = {
    ...(socketPath ? { socketPath } : { host: modem.host, port: modem.port }),
    method: "POST",
    path,
    headers: { Connection: "Upgrade", Upgrade: "tcp" },
  };
  const request = tls
    ? httpsRequest({ ...target, ca: modem.ca, cert: modem.cert, key: modem.key } as HttpsRequestOptions)
    : httpRequest(target);
  return new Promise<Duplex>((resolve, reject) => {
    request.once("upgrade", (_response, socket, head) => {
      if (head.length > 0) socket.unshift(head);
      resolve(socket);
    });
    request.once("response", (response) => {
      let body = "";
      response.setEncoding("utf8").on("data", (chunk: string) => {
        body += chunk;
      });
      response.once("end", () =>
        reject(
          Object.assign(new Error(`(HTTP code ${response.statusCode}) attach refused: ${body.trim()}`), {
            statusCode: response.statusCode,
          }),
        ),
      );
    });
    request.once("error", reject);
    request.end();
  });
}

/**
 * Claude Code in its container, as the SDK sees a process: stdin and stdout are streams at once (the container
 * is made, attached and started behind them; what the SDK writes before then waits in stdin), `kill` sends the
 * signal to the container, `exit` is emitted with the code or signal once its output has been read, `error`
 * when the container cannot be made or started.
 */
class ContainerProcess extends EventEmitter implements ClaudeSpawnedProcess {
  readonly stdin = new PassThrough();
  readonly stdout = new PassThrough();
  killed = false;
  exitCode: number | null = null;
  signalCode: NodeJS.Signals | null = null;
  private container: Dockerode.Container | null = null;
  private started = false;
  private pendingSignal: NodeJS.Signals | null = null;
  private ended = false;

  kill(signal: NodeJS.Signals = "SIGTERM"): boolean {
    if (this.ended) return false;
    this.killed = true;
    this.pendingSignal = signal;
    if (this.started) this.signalContainer(signal);
    return true;
  }

  private signalContainer(signal: NodeJS.Signals): void {
    this.container?.kill({ signal }).catch(() => {
      // Already stopped or gone: its exit is reported by wait.
    });
  }

  /** Whether the container still runs (or has not started yet). */
  get running(): boolean {
    return !this.ended;
  }

  /**
   * Makes, attaches and starts the container, waits for it, reports its exit, and removes it whatever
   * happened. Resolves when it is removed; never rejects (failures are `error` events).
   */
  async run(
    connected: ConnectedEngine,
    options: Dockerode.ContainerCreateOptions,
    stderr: (data: string) => void,
    describeFailure: (error: unknown) => Error,
  ): Promise<void> {
    const name = `karenina-claude-${randomUUID().replaceAll("-", "").slice(0, 12)}`;
    let container: Dockerode.Container | null = null;
    try {
      container = await connected.docker.createContainer({
        _query: { name },
        _body: options,
      } as Dockerode.ContainerCreateOptions);
      this.container = container;
      if (this.pendingSignal !== null) {
        this.finish(null, this.pendingSignal);
        return;
      }
      const stream = await attachHijacked(connected.docker, container.id);
      stream.on("error", () => {
        // The container ended while stdin was written: its exit is reported by wait.
      });
      const errors = new Writable({
        write(chunk: Buffer, _encoding, done) {
          stderr(chunk.toString("utf8"));
          done();
        },
      });
      connected.docker.modem.demuxStream(stream, this.stdout, errors);
      const outputDone = streamEnd(stream);
      this.stdin.pipe(stream);
      await container.start();
      this.started = true;
      if (this.pendingSignal !== null) this.signalContainer(this.pendingSignal);
      const waited = (await container.wait()) as { StatusCode?: number };
      await Promise.race([outputDone, delay(OUTPUT_GRACE_MS)]);
      this.stdin.unpipe(stream);
      stream.destroy();
      const exit = initExit(waited.StatusCode ?? -1);
      this.finish(exit.code, exit.signal);
    } catch (error) {
      if (this.ended) return;
      this.ended = true;
      this.stdout.end();
      this.emit("error", describeFailure(error));
    } finally {
      await container?.remove({ force: true, v: true }).catch((error: unknown) => {
        if (!isStatus(error, 404))
          stderr(`the container ${name} could not be removed: ${describeError(error)}\n`);
      });
    }
  }

  private finish(code: number | null, signal: NodeJS.Signals | null): void {
    if (this.ended) return;
    this.ended = true;
    this.exitCode = code;
    this.signalCode = signal;
    this.stdout.end();
    this.emit("exit", code, signal);
  }
}

/** The program to run and the host paths it needs bound read-only; a bare name is left to the image's PATH. */
function programOf(request: ClaudeSpawnRequest): { command: string; readOnly: string[] } {
  if (isAbsolute(request.command)) return claudeProgramMounts(request);
  return { command: request.command, readOnly: scriptMounts(request.args) };
}

/**
 * Checks that the engine answers (and is the one asked for) and has the image (pulling it when missing), then
 * makes the container of one Claude Code session in `workspace` on each spawn, with
 * {@link claudeCodeCreateOptions}: memory at least {@link CLAUDE_CODE_MIN_ADDRESS_SPACE}, the SDK's forwarded
 * abort signal killing it, and the container removed when Claude Code exits or at `dispose`.
 * @throws {ContainerBackendUnavailableError} when the engine does not answer, is not the one asked for, or
 * the image is missing and cannot be pulled; never falls back to another backend or to the host.
 */
export async function claudeCodeEngineContainer(
  options: ClaudeCodeEngineOptions,
): Promise<ClaudeCodeEngineContainer> {
  const { runtime } = options;
  const connected = await connectEngine(runtime, options.engineEnv ?? process.env);
  await ensureImage(connected, runtime, options.image);
  const limits: ContainerLimits = { ...DEFAULT_CONTAINER_LIMITS, ...options.limits };
  limits.memoryBytes = Math.max(limits.memoryBytes, CLAUDE_CODE_MIN_ADDRESS_SPACE);
  const identity = containerIdentity(
    connected.engine,
    process.getuid === undefined || process.getgid === undefined
      ? null
      : { uid: process.getuid(), gid: process.getgid() },
  );
  const engineName = runtime === "docker" ? "Docker" : "Podman";
  const processes: ContainerProcess[] = [];
  const removals: Promise<void>[] = [];
  let lastCreateOptions: Dockerode.ContainerCreateOptions | null = null;
  let failure: Error | null = null;
  let disposed: Promise<void> | null = null;
  const describeFailure = (error: unknown): Error => {
    failure ??= new ContainerBackendUnavailableError(
      runtime,
      `${engineName} could not start Claude Code in image ${options.image} at ${connected.endpoint.shown} ` +
        `(${describeError(error)}): the image needs glibc and bash (for example debian:bookworm-slim)`,
    );
    return failure;
  };
  return {
    get failure() {
      return failure;
    },
    get lastCreateOptions() {
      return lastCreateOptions;
    },
    spawn(request) {
      const program = programOf(request);
      const create = claudeCodeCreateOptions({
        image: options.image,
        workspace: options.workspace,
        command: program.command,
        args: request.args,
        env: request.env,
        readOnly: [...program.readOnly, ...(options.readOnlyPaths ?? [])],
        network: options.network ?? "host",
        addHosts: options.addHosts ?? [],
        limits,
        cpus: options.cpus ?? 1,
        identity,
        podman: connected.engine.podman,
      });
      lastCreateOptions = create;
      const child = new ContainerProcess();
      processes.push(child);
      const stderr = options.stderr ?? (() => {});
      if (disposed !== null) {
        queueMicrotask(() => child.emit("error", describeFailure(new Error("the session is over"))));
        return child;
      }
      const abort = () => child.kill("SIGKILL");
      if (request.signal?.aborted) child.kill("SIGKILL");
      else request.signal?.addEventListener("abort", abort, { once: true });
      removals.push(
        child.run(connected, create, stderr, describeFailure).finally(() => {
          request.signal?.removeEventListener("abort", abort);
        }),
      );
      return child;
    },
    dispose() {
      disposed ??= (async () => {
        for (const child of processes) if (child.running) child.kill("SIGKILL");
        await Promise.all(removals);
      })();
      return disposed;
    },
  };
}
