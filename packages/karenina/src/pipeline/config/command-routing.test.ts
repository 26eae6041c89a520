import { createServer } from "node:net";
import { afterEach, describe, expect, test, vi } from "vitest";
import { commandBackendFor, commandRunnerFor } from "./command-routing.js";
import { AgentRuntimeConfigSchema } from "./model/index.js";

const runtime = (value: Record<string, unknown>) => AgentRuntimeConfigSchema.parse(value);

describe("the command backend of a model", () => {
  test("the original's settings load; the host only by name, bubblewrap by default", () => {
    const original = runtime({
      backend: "container",
      container_runtime: "apptainer",
      container_image: "/images/tools.sif",
      container_network: "bridge",
      container_add_hosts: [],
    });
    expect(commandBackendFor(original)).toBe("apptainer");
    expect(commandBackendFor(null)).toBe("bubblewrap");
    expect(commandBackendFor(runtime({ backend: "filesystem" }))).toBe("bubblewrap");
    expect(commandBackendFor(runtime({ backend: "local_shell" }))).toBe("host");
    expect(commandBackendFor(runtime({ backend: "host" }))).toBe("host");
    expect(commandBackendFor(runtime({ backend: "docker" }))).toBe("docker");
    expect(runtime({}).container_network).toBe("none");
  });

  test.each([
    [
      { backend: "docker" },
      "container backend docker is unavailable: container_image is required: set agent_runtime.container_image",
    ],
    [
      { backend: "container", container_runtime: "podman", container_image: " " },
      "container backend podman is unavailable: container_image is required",
    ],
    [
      { backend: "docker", container_image: "python:3.12-slim", container_add_hosts: ["db 10.0.0.2"] },
      'container_add_hosts entries must be "name:address": "db 10.0.0.2"',
    ],
    [{ backend: "container", container_runtime: "singularity" }, "karenina has no Singularity backend"],
    [{ backend: "container", container_runtime: "apptainer" }, "karenina has no Apptainer backend"],
    [{ container_image: "python:3.12" }, "takes no container_image"],
    [{ container_add_hosts: ["db:10.0.0.2"] }, "container_add_hosts is not supported with bubblewrap"],
  ])("%j is refused with a clear error, never run elsewhere", async (settings, message) => {
    await expect(commandRunnerFor(runtime(settings))).rejects.toThrow(message);
  });
});

describe("Docker and Podman are asked for through their API", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  test("a Docker daemon that does not answer fails the model's commands, never running them elsewhere", async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as { port: number }).port;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    vi.stubEnv("DOCKER_HOST", `tcp://127.0.0.1:${port}`);
    await expect(
      commandRunnerFor(runtime({ backend: "docker", container_image: "python:3.12-slim" })),
    ).rejects.toThrow(
      `container backend docker is unavailable: cannot reach the Docker daemon at tcp://127.0.0.1:${port}`,
    );
  });

  test("Podman's socket that is not there fails with how to start it", async () => {
    vi.stubEnv("CONTAINER_HOST", "unix:///nonexistent/karenina/podman.sock");
    await expect(
      commandRunnerFor(
        runtime({ backend: "container", container_runtime: "podman", container_image: "python:3.12-slim" }),
      ),
    ).rejects.toThrow(
      /cannot reach Podman's API service at unix:\/\/\/nonexistent\/karenina\/podman\.sock .*podman\.socket/,
    );
  });
});
