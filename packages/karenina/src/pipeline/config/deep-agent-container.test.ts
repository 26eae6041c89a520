import { describe, expect, test } from "vitest";
import { ContainerBackendUnavailableError } from "../../agentic/index.js";
import { deepAgentContainerFor } from "./index.js";
import { AgentRuntimeConfigSchema } from "./model/index.js";

describe("deepAgentContainerFor (the deep agent's container, by run_command's rule)", () => {
  test("bubblewrap by default, with the model's limits", () => {
    expect(deepAgentContainerFor(null)).toEqual({
      backend: "bubblewrap",
      limits: { cpuSeconds: 60, memoryBytes: 2048 * 1024 ** 2, maxProcesses: 256 },
    });
    const runtime = AgentRuntimeConfigSchema.parse({
      backend: "container",
      container_runtime: "bubblewrap",
      container_cpu_seconds: 120,
    });
    expect(deepAgentContainerFor(runtime)?.limits?.cpuSeconds).toBe(120);
  });

  test("the host only when named", () => {
    expect(deepAgentContainerFor(AgentRuntimeConfigSchema.parse({ backend: "local_shell" }))).toBeNull();
  });

  test("Docker, Podman and bubblewrap with an image are refused, never run on the host", () => {
    for (const runtime of [
      AgentRuntimeConfigSchema.parse({ backend: "docker" }),
      AgentRuntimeConfigSchema.parse({ backend: "container", container_runtime: "podman" }),
      AgentRuntimeConfigSchema.parse({ backend: "container", container_runtime: "apptainer" }),
      AgentRuntimeConfigSchema.parse({
        backend: "container",
        container_runtime: "bubblewrap",
        container_image: "python:3.12-slim",
      }),
    ]) {
      expect(() => deepAgentContainerFor(runtime)).toThrow(ContainerBackendUnavailableError);
    }
  });
});
