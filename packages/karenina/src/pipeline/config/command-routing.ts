/**
 * Where a tool-loop agent's `run_command` runs, from the model's `agent_runtime` (spec 05 §5.4–5.5): a
 * container backend by default, the host only when asked for by name. A backend that is asked for and cannot
 * run here fails the task; it never falls back to another.
 */
import {
  bubblewrapRunner,
  type ClaudeContainerSettings,
  type CommandRunner,
  ContainerBackendUnavailableError,
  dockerRunner,
  hostCommandRunner,
  malformedAddHosts,
} from "../../agentic/index.js";
import type { AgentRuntimeConfig } from "./model/index.js";
import { AgentRuntimeConfigSchema } from "./model/index.js";

/** The command backends a model may name (`container_runtime`, or `host` for `backend: local_shell`). */
export type CommandBackendName = "host" | AgentRuntimeConfig["container_runtime"];

/**
 * The command backend of a model: `host` for `backend` `local_shell`/`host`; Docker for `docker`;
 * `container_runtime` for `container`; bubblewrap otherwise (no runtime settings, `filesystem`, `native`).
 * @example
 * commandBackendFor(null); // "bubblewrap"
 * commandBackendFor(AgentRuntimeConfigSchema.parse({ backend: "local_shell" })); // "host"
 */
export function commandBackendFor(runtime: AgentRuntimeConfig | null): CommandBackendName {
  switch (runtime?.backend) {
    case "local_shell":
    case "host":
      return "host";
    case "docker":
      return "docker";
    case "container":
      return runtime.container_runtime;
    default:
      return "bubblewrap";
  }
}

const NOT_IN_THIS_BUILD: Record<string, string> = {
  singularity: "karenina has no Singularity backend",
  apptainer: "karenina has no Apptainer backend",
};

const CHOICES =
  'set agent_runtime.container_runtime to "docker" or "podman" (with a container_image), or "bubblewrap" ' +
  '(Linux), with backend "container"; or backend "local_shell" to run commands on the host, unconfined';

/** The limits of each command, from the model's settings. */
function limitsOf(settings: AgentRuntimeConfig) {
  return {
    cpuSeconds: settings.container_cpu_seconds,
    memoryBytes: settings.container_memory_mb * 1024 ** 2,
    maxProcesses: settings.container_max_processes,
  };
}

/** Docker, or Podman through its Docker-compatible API: an image is required, extra hosts are honoured. */
async function engineRunner(
  backend: "docker" | "podman",
  settings: AgentRuntimeConfig,
): Promise<CommandRunner> {
  if (settings.container_image === null || settings.container_image.trim() === "") {
    throw new ContainerBackendUnavailableError(
      backend,
      "container_image is required: set agent_runtime.container_image to an image with the programs the agent " +
        'needs (for example "python:3.12-slim")',
    );
  }
  const malformed = malformedAddHosts(settings.container_add_hosts);
  if (malformed.length > 0) {
    throw new ContainerBackendUnavailableError(
      backend,
      `container_add_hosts entries must be "name:address": ${malformed.map((entry) => JSON.stringify(entry)).join(", ")}`,
    );
  }
  return dockerRunner({
    runtime: backend,
    image: settings.container_image,
    network: settings.container_network === "bridge",
    addHosts: settings.container_add_hosts,
    limits: limitsOf(settings),
  });
}

/**
 * The `run_command` runner of a model, checked to work here.
 * @throws {ContainerBackendUnavailableError} for a backend this build lacks or that cannot run here (an engine
 * that does not answer, an image that cannot be had), and for settings the chosen backend cannot honour (no
 * image for Docker or Podman; an image or extra hosts for bubblewrap).
 */
export async function commandRunnerFor(runtime: AgentRuntimeConfig | null): Promise<CommandRunner> {
  const backend = commandBackendFor(runtime);
  if (backend === "host") return hostCommandRunner;
  const missing = NOT_IN_THIS_BUILD[backend];
  if (missing !== undefined) throw new ContainerBackendUnavailableError(backend, `${missing}; ${CHOICES}`);
  const settings = runtime ?? AgentRuntimeConfigSchema.parse({});
  if (backend === "docker" || backend === "podman") return engineRunner(backend, settings);
  if (settings.container_image !== null) {
    throw new ContainerBackendUnavailableError(
      backend,
      `it runs commands on the host's own system files, read-only, and takes no container_image ` +
        `(${JSON.stringify(settings.container_image)}): remove it, or choose a runtime with images`,
    );
  }
  if (settings.container_add_hosts.length > 0) {
    throw new ContainerBackendUnavailableError(
      backend,
      "container_add_hosts is not supported with bubblewrap: remove it",
    );
  }
  return bubblewrapRunner({ network: settings.container_network === "bridge", limits: limitsOf(settings) });
}

/**
 * The container of a `deep_agent` (Claude Code) model, by the rule of {@link commandBackendFor}: bubblewrap by
 * default (with the model's limits; the network: only the model's API, through the model gate, unless
 * `container_network` is `bridge`, which shares the host's network), Docker or Podman with `container_image`
 * and `container_network` `bridge` (the engine's bridge network, with `container_add_hosts`: such a container
 * cannot be limited to the model's API, so the network must be asked for), null (a host process) only for
 * `backend: local_shell`/`host`. The engine and image are checked
 * when the run starts.
 * @throws {ContainerBackendUnavailableError} for Singularity or Apptainer, for Docker or Podman without an
 * image, without `container_network` `bridge` or with malformed extra hosts, and for bubblewrap settings it cannot honour.
 */
export function deepAgentContainerFor(runtime: AgentRuntimeConfig | null): ClaudeContainerSettings | null {
  const backend = commandBackendFor(runtime);
  if (backend === "host") return null;
  const missing = NOT_IN_THIS_BUILD[backend];
  if (missing !== undefined) throw new ContainerBackendUnavailableError(backend, `${missing}; ${CHOICES}`);
  const settings = runtime ?? AgentRuntimeConfigSchema.parse({});
  if (backend === "docker" || backend === "podman") {
    const image = settings.container_image?.trim() ?? "";
    if (image === "") {
      throw new ContainerBackendUnavailableError(
        backend,
        "container_image is required: set agent_runtime.container_image to an image with glibc and bash (for " +
          'example "debian:bookworm-slim"); Claude Code\'s own program is bound into it from the host',
      );
    }
    const malformed = malformedAddHosts(settings.container_add_hosts);
    if (malformed.length > 0) {
      throw new ContainerBackendUnavailableError(
        backend,
        `container_add_hosts entries must be "name:address": ${malformed.map((entry) => JSON.stringify(entry)).join(", ")}`,
      );
    }
    if (settings.container_network !== "bridge") {
      // Claude Code needs its model's API, and only bubblewrap's model gate can hold its network to that API.
      throw new ContainerBackendUnavailableError(
        backend,
        "the deep agent (Claude Code) must reach its model's API, and a Docker/Podman container cannot be " +
          'limited to it: set agent_runtime.container_network to "bridge" to give the container (and the ' +
          'commands Claude Code runs) the engine\'s bridge network, or use container_runtime "bubblewrap" (the ' +
          "default), whose container reaches the model's API and nothing else",
      );
    }
    return {
      backend,
      image,
      network: "bridge",
      addHosts: settings.container_add_hosts,
      limits: limitsOf(settings),
    };
  }
  if (settings.container_image !== null || settings.container_add_hosts.length > 0) {
    throw new ContainerBackendUnavailableError(
      backend,
      "the deep agent's bubblewrap container takes no container_image or container_add_hosts: remove them",
    );
  }
  return {
    backend: "bubblewrap",
    network: settings.container_network === "bridge" ? "host" : "model",
    limits: limitsOf(settings),
  };
}
