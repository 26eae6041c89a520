import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type Dockerode from "dockerode";
import type { EngineKind } from "./docker-create-options.js";
import { ContainerBackendUnavailableError } from "./errors.js";

/** The engines that speak the Docker Engine API. */
export type DockerRuntime = "docker" | "podman";

/**
 * Where the engine's API answers: a unix socket, or `DOCKER_HOST` as the Docker client reads it (tcp, ssh,
 * TLS settings from `DOCKER_TLS_VERIFY` / `DOCKER_CERT_PATH`).
 */
export type DaemonEndpoint =
  | { kind: "socket"; socketPath: string; shown: string }
  | { kind: "docker-host"; shown: string };

/** Where each engine's socket usually is, in the order they are tried. */
export function defaultSockets(runtime: DockerRuntime, env: NodeJS.ProcessEnv): string[] {
  if (runtime === "docker") return [join(homedir(), ".docker", "run", "docker.sock"), "/var/run/docker.sock"];
  const rootless =
    env.XDG_RUNTIME_DIR === undefined ? [] : [join(env.XDG_RUNTIME_DIR, "podman", "podman.sock")];
  return [...rootless, "/run/podman/podman.sock"];
}

const socketOf = (path: string, shown = `unix://${path}`): DaemonEndpoint => ({
  kind: "socket",
  socketPath: path,
  shown,
});

/**
 * The endpoint of `runtime`. Docker: `DOCKER_HOST`, else the first default socket that exists (else
 * /var/run/docker.sock). Podman: `CONTAINER_HOST` (a unix socket), else the first Podman socket that exists
 * (the user's, then the system's), else `DOCKER_HOST` (pointed at Podman's socket), else the system socket.
 * For example `DOCKER_HOST=tcp://127.0.0.1:2375` is shown as `tcp://127.0.0.1:2375`.
 * @throws {ContainerBackendUnavailableError} for a `CONTAINER_HOST` that is not a unix socket.
 */
export function daemonEndpoint(
  runtime: DockerRuntime,
  env: NodeJS.ProcessEnv,
  exists: (path: string) => boolean = existsSync,
): DaemonEndpoint {
  const dockerHost = env.DOCKER_HOST?.trim() || undefined;
  const defaults = defaultSockets(runtime, env);
  const found = defaults.find(exists);
  if (runtime === "docker") {
    if (dockerHost !== undefined) {
      return dockerHost.startsWith("unix://")
        ? socketOf(dockerHost.slice("unix://".length), dockerHost)
        : { kind: "docker-host", shown: dockerHost };
    }
    return socketOf(found ?? "/var/run/docker.sock");
  }
  const containerHost = env.CONTAINER_HOST?.trim() || undefined;
  if (containerHost !== undefined) {
    if (!containerHost.startsWith("unix://")) {
      throw new ContainerBackendUnavailableError(
        "podman",
        `CONTAINER_HOST=${containerHost} is not a unix socket; karenina reaches Podman through its local API ` +
          "socket: point CONTAINER_HOST at it (unix:///run/user/<uid>/podman/podman.sock), or unset it",
      );
    }
    return socketOf(containerHost.slice("unix://".length), containerHost);
  }
  if (found !== undefined) return socketOf(found);
  if (dockerHost !== undefined) {
    return dockerHost.startsWith("unix://")
      ? socketOf(dockerHost.slice("unix://".length), dockerHost)
      : { kind: "docker-host", shown: dockerHost };
  }
  return socketOf(defaults.at(-1) ?? "/run/podman/podman.sock");
}

/** What to do so that the engine answers, for the error when it does not. */
const START_HINT: Record<DockerRuntime, string> = {
  docker:
    "start the Docker daemon, or set DOCKER_HOST to where it listens (karenina does not read `docker context`)",
  podman:
    "start Podman's API socket (systemctl --user start podman.socket, or `podman system service`), or set " +
    "CONTAINER_HOST to it",
};

/** How long the engine has to answer the first request before the task fails. */
const PING_DEADLINE_MS = 10_000;

async function withDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** An error's code and message, for a sentence. */
export function describeError(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  return typeof code === "string" && !message.includes(code) ? `${code}: ${message}` : message;
}

/** A client of the engine, checked to answer, with what kind of engine it is. */
export interface ConnectedEngine {
  docker: Dockerode;
  engine: EngineKind;
  endpoint: DaemonEndpoint;
}

/**
 * Loads the client library (only now: nothing of it is loaded unless a model asks for Docker or Podman),
 * then checks that the engine answers and is the one asked for.
 * @throws {ContainerBackendUnavailableError} when it does not answer, or Podman was asked for and Docker
 * answered; never falls back to another backend.
 */
export async function connectEngine(
  runtime: DockerRuntime,
  env: NodeJS.ProcessEnv,
): Promise<ConnectedEngine> {
  const endpoint = daemonEndpoint(runtime, env);
  const { default: Docker } = await import("dockerode");
  const name = runtime === "docker" ? "the Docker daemon" : "Podman's API service";
  let docker: Dockerode;
  let version: Dockerode.DockerVersion;
  let info: { SecurityOptions?: unknown };
  try {
    // The client also reads DOCKER_HOST from the environment: an explicit socket clears its host and port.
    docker =
      endpoint.kind === "socket"
        ? new Docker({ socketPath: endpoint.socketPath, host: undefined, port: undefined })
        : new Docker();
    await withDeadline(docker.ping(), PING_DEADLINE_MS, name);
    version = await withDeadline(docker.version(), PING_DEADLINE_MS, name);
    info = await withDeadline(docker.info(), PING_DEADLINE_MS, name);
  } catch (error) {
    throw new ContainerBackendUnavailableError(
      runtime,
      `cannot reach ${name} at ${endpoint.shown} (${describeError(error)}): ${START_HINT[runtime]}; commands ` +
        "never fall back to another backend",
    );
  }
  const engine = engineKind(version, info);
  if (runtime === "podman" && !engine.podman) {
    throw new ContainerBackendUnavailableError(
      "podman",
      `${endpoint.shown} is answered by Docker, not Podman: point CONTAINER_HOST at Podman's socket, or choose ` +
        'container_runtime "docker"',
    );
  }
  return { docker, engine, endpoint };
}

/** Podman names its engine component "Podman Engine"; rootless engines list `name=rootless`. */
export function engineKind(
  version: { Components?: { Name?: string }[] | undefined },
  info: { SecurityOptions?: unknown },
): EngineKind {
  const podman = (version.Components ?? []).some((component) => /podman/i.test(component.Name ?? ""));
  const options = Array.isArray(info.SecurityOptions) ? info.SecurityOptions : [];
  const rootless = options.some((option) => typeof option === "string" && option.includes("name=rootless"));
  return { podman, rootless };
}

/** Whether an error from the client is the engine's HTTP status `code`. */
export const isStatus = (error: unknown, code: number): boolean =>
  (error as { statusCode?: unknown }).statusCode === code;

/**
 * Makes sure `image` is on the engine, pulling it when missing (as `docker run` does).
 * @throws {ContainerBackendUnavailableError} when it is missing and cannot be pulled.
 */
export async function ensureImage(
  connected: ConnectedEngine,
  runtime: DockerRuntime,
  image: string,
): Promise<void> {
  const { docker } = connected;
  try {
    await docker.getImage(image).inspect();
    return;
  } catch (error) {
    if (!isStatus(error, 404)) {
      throw new ContainerBackendUnavailableError(
        runtime,
        `cannot inspect image ${image} (${describeError(error)})`,
      );
    }
  }
  try {
    const stream = await docker.pull(image);
    const events = await new Promise<{ error?: string; errorDetail?: { message?: string } }[]>(
      (resolve, reject) =>
        docker.modem.followProgress(stream, (error, output) =>
          error ? reject(error) : resolve(output ?? []),
        ),
    );
    const failed = events.find((event) => event.error !== undefined || event.errorDetail !== undefined);
    if (failed !== undefined) throw new Error(failed.errorDetail?.message ?? failed.error);
  } catch (error) {
    throw new ContainerBackendUnavailableError(
      runtime,
      `image ${image} is not on the engine and could not be pulled (${describeError(error)}): pull or build it ` +
        `first (${runtime} pull ${image}), or set agent_runtime.container_image to an image that is there`,
    );
  }
}
