import { describe, expect, test } from "vitest";
import { ContainerBackendUnavailableError } from "../../agentic/index.js";
import { deepAgentContainerFor } from "./index.js";
import { AgentRuntimeConfigSchema } from "./model/index.js";

describe("deepAgentContainerFor (the deep agent's container, by run_command's rule)", () => {
  test("bubblewrap by default, with the model's limits and only the model's API for network", () => {
    expect(deepAgentContainerFor(null)).toEqual({
      backend: "bubblewrap",
      network: "model",
      limits: { cpuSeconds: 60, memoryBytes: 2048 * 1024 ** 2, maxProcesses: 256 },
    });
    const runtime = AgentRuntimeConfigSchema.parse({
      backend: "container",
      container_runtime: "bubblewrap",
      container_cpu_seconds: 120,
    });
    expect(deepAgentContainerFor(runtime)?.limits?.cpuSeconds).toBe(120);
  });

  test("bubblewrap with container_network bridge shares the host's network", () => {
    const runtime = AgentRuntimeConfigSchema.parse({ container_network: "bridge" });
    expect(deepAgentContainerFor(runtime)).toMatchObject({ backend: "bubblewrap", network: "host" });
    const none = AgentRuntimeConfigSchema.parse({ backend: "container", container_runtime: "bubblewrap" });
    expect(deepAgentContainerFor(none)).toMatchObject({ backend: "bubblewrap", network: "model" });
  });

  test("the host only when named", () => {
    expect(deepAgentContainerFor(AgentRuntimeConfigSchema.parse({ backend: "local_shell" }))).toBeNull();
  });

  test("Docker and Podman with an image and the network asked for: the engine's bridge, with its extra hosts", () => {
    const limits = { cpuSeconds: 60, memoryBytes: 2048 * 1024 ** 2, maxProcesses: 256 };
    expect(
      deepAgentContainerFor(
        AgentRuntimeConfigSchema.parse({
          backend: "docker",
          container_image: "debian:bookworm-slim",
          container_network: "bridge",
        }),
      ),
    ).toEqual({ backend: "docker", image: "debian:bookworm-slim", network: "bridge", addHosts: [], limits });
    expect(
      deepAgentContainerFor(
        AgentRuntimeConfigSchema.parse({
          backend: "container",
          container_runtime: "podman",
          container_image: " node:20-bookworm-slim ",
          container_network: "bridge",
          container_add_hosts: ["gateway:host-gateway"],
        }),
      ),
    ).toEqual({
      backend: "podman",
      image: "node:20-bookworm-slim",
      network: "bridge",
      addHosts: ["gateway:host-gateway"],
      limits,
    });
  });

  test.each([
    [{ backend: "docker" }, "container backend docker is unavailable: container_image is required"],
    [
      { backend: "container", container_runtime: "podman", container_image: " " },
      "container_image is required",
    ],
    [
      {
        backend: "docker",
        container_image: "debian:bookworm-slim",
        container_network: "bridge",
        container_add_hosts: ["db 10.0.0.2"],
      },
      'container_add_hosts entries must be "name:address": "db 10.0.0.2"',
    ],
    [
      { backend: "docker", container_image: "debian:bookworm-slim" },
      'a Docker/Podman container cannot be limited to it: set agent_runtime.container_network to "bridge"',
    ],
    [
      { backend: "container", container_runtime: "podman", container_image: "debian:bookworm-slim" },
      'or use container_runtime "bubblewrap" (the default), whose container reaches the model\'s API and nothing else',
    ],
    [{ backend: "container", container_runtime: "apptainer" }, "karenina has no Apptainer backend"],
    [{ backend: "container", container_runtime: "singularity" }, "karenina has no Singularity backend"],
    [
      { backend: "container", container_runtime: "bubblewrap", container_image: "python:3.12-slim" },
      "takes no container_image or container_add_hosts",
    ],
  ])("%j is refused with a clear error, never run on the host", (settings, message) => {
    const runtime = AgentRuntimeConfigSchema.parse(settings);
    expect(() => deepAgentContainerFor(runtime)).toThrow(ContainerBackendUnavailableError);
    expect(() => deepAgentContainerFor(runtime)).toThrow(message);
  });
});
