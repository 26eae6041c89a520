/**
 * The container the Docker backend asks the engine for, built from a model's settings: what confines the
 * command is all in these options, so they are pinned down here whether or not a daemon is present.
 */
import { describe, expect, test } from "vitest";
import {
  containerIdentity,
  type DockerCommandSpec,
  dockerCreateOptions,
  malformedAddHosts,
} from "./docker-create-options.js";

const spec = (overrides: Partial<DockerCommandSpec> = {}): DockerCommandSpec => ({
  image: "python:3.12-slim",
  workspace: "/home/ana/runs/ws-1",
  command: "python",
  args: ["-c", "print(1)"],
  network: false,
  addHosts: [],
  limits: { cpuSeconds: 60, memoryBytes: 2048 * 1024 ** 2, maxProcesses: 256 },
  cpus: 1,
  identity: { user: "1000:1000" },
  podman: false,
  labels: { "org.karenina.run-command": "true" },
  ...overrides,
});

describe("the create options of a command's container", () => {
  test("default settings: the image, argv as given, the workspace read-write at its own path, all confined", () => {
    expect(dockerCreateOptions(spec())).toEqual({
      Image: "python:3.12-slim",
      Entrypoint: ["python"],
      Cmd: ["-c", "print(1)"],
      WorkingDir: "/home/ana/runs/ws-1",
      Env: ["HOME=/home/ana/runs/ws-1", "TMPDIR=/tmp", "LANG=C.UTF-8"],
      User: "1000:1000",
      Labels: { "org.karenina.run-command": "true" },
      AttachStdin: false,
      AttachStdout: true,
      AttachStderr: true,
      OpenStdin: false,
      Tty: false,
      HostConfig: {
        Init: true,
        Mounts: [
          { Type: "bind", Source: "/home/ana/runs/ws-1", Target: "/home/ana/runs/ws-1", ReadOnly: false },
        ],
        ReadonlyRootfs: true,
        Tmpfs: { "/tmp": "rw,nosuid,nodev,size=256m" },
        CapDrop: ["ALL"],
        SecurityOpt: ["no-new-privileges"],
        Privileged: false,
        NetworkMode: "none",
        ExtraHosts: [],
        Memory: 2048 * 1024 ** 2,
        MemorySwap: 2048 * 1024 ** 2,
        NanoCpus: 1_000_000_000,
        PidsLimit: 256,
        Ulimits: [
          { Name: "cpu", Soft: 60, Hard: 61 },
          { Name: "core", Soft: 0, Hard: 0 },
        ],
        LogConfig: { Type: "none", Config: {} },
        AutoRemove: false,
      },
    });
  });

  test("the model's limits become the container's: memory without swap, CPU rate and time, processes", () => {
    const options = dockerCreateOptions(
      spec({ limits: { cpuSeconds: 5, memoryBytes: 128 * 1024 ** 2, maxProcesses: 32 }, cpus: 0.5 }),
    );
    expect(options.HostConfig).toMatchObject({
      Memory: 128 * 1024 ** 2,
      MemorySwap: 128 * 1024 ** 2,
      NanoCpus: 500_000_000,
      PidsLimit: 32,
      Ulimits: [
        { Name: "cpu", Soft: 5, Hard: 6 },
        { Name: "core", Soft: 0, Hard: 0 },
      ],
      // The private /tmp counts against the memory limit: never larger than it.
      Tmpfs: { "/tmp": "rw,nosuid,nodev,size=128m" },
    });
  });

  test("the network is the bridge, with the extra hosts, only when the settings allow it", () => {
    const open = dockerCreateOptions(spec({ network: true, addHosts: ["db:10.0.0.2", "gw:host-gateway"] }));
    expect(open.HostConfig?.NetworkMode).toBe("bridge");
    expect(open.HostConfig?.ExtraHosts).toEqual(["db:10.0.0.2", "gw:host-gateway"]);
    expect(dockerCreateOptions(spec()).HostConfig?.NetworkMode).toBe("none");
  });

  test("an empty argument list and a command with spaces are passed as they are, never to a shell", () => {
    const options = dockerCreateOptions(spec({ command: "my tool", args: [] }));
    expect(options.Entrypoint).toEqual(["my tool"]);
    expect(options.Cmd).toEqual([]);
  });

  test("Podman gets open-file and process limits named, under any hard limit; Docker keeps the daemon's", () => {
    expect(dockerCreateOptions(spec({ podman: true })).HostConfig?.Ulimits).toEqual([
      { Name: "cpu", Soft: 60, Hard: 61 },
      { Name: "core", Soft: 0, Hard: 0 },
      { Name: "nofile", Soft: 1024, Hard: 4096 },
      { Name: "nproc", Soft: 4096, Hard: 4096 },
    ]);
    expect(dockerCreateOptions(spec()).HostConfig?.Ulimits?.map((limit) => limit.Name)).toEqual([
      "cpu",
      "core",
    ]);
  });

  test("Podman's keep-id user namespace is asked for only when the identity carries it", () => {
    const options = dockerCreateOptions(spec({ identity: { user: "1000:1000", usernsMode: "keep-id" } }));
    expect(options.HostConfig?.UsernsMode).toBe("keep-id");
    expect(dockerCreateOptions(spec()).HostConfig).not.toHaveProperty("UsernsMode");
    expect(dockerCreateOptions(spec({ identity: {} }))).not.toHaveProperty("User");
  });
});

describe("who the command runs as, so that the workspace's files stay the user's", () => {
  const user = { uid: 1000, gid: 1001 };
  test.each([
    ["rootful Docker: the user's uid:gid", { podman: false, rootless: false }, { user: "1000:1001" }],
    [
      "rootless Docker: container root, which is the user",
      { podman: false, rootless: true },
      { user: "0:0" },
    ],
    ["rootful Podman: the user's uid:gid", { podman: true, rootless: false }, { user: "1000:1001" }],
    [
      "rootless Podman: the user's uid:gid kept by keep-id",
      { podman: true, rootless: true },
      { user: "1000:1001", usernsMode: "keep-id" },
    ],
  ])("%s", (_, engine, expected) => {
    expect(containerIdentity(engine, user)).toEqual(expected);
  });

  test("where the host has no uids (Windows), the image's user is kept", () => {
    expect(containerIdentity({ podman: false, rootless: false }, null)).toEqual({});
  });
});

test("extra hosts must be name:address", () => {
  expect(
    malformedAddHosts(["db:10.0.0.2", "v6:fe80::1", "gw:host-gateway", "nohost", "a b:1.2.3.4", "x:"]),
  ).toEqual(["nohost", "a b:1.2.3.4", "x:"]);
});
