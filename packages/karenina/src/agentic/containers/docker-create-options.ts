import type { ContainerCreateOptions } from "dockerode";
import type { ContainerLimits } from "./limits.js";

/** What the answering engine is: Podman and rootless engines map users differently. */
export interface EngineKind {
  podman: boolean;
  rootless: boolean;
}

/** Who the command runs as inside the container, and the user namespace that maps it to the host. */
export interface ContainerIdentity {
  /** `uid:gid` inside the container; absent where the host has no uids (Windows). */
  user?: string;
  /** Podman's `keep-id`: the container's uid is the host user's own. */
  usernsMode?: string;
}

/**
 * The identity that keeps the workspace's files owned by the user running karenina: that user's `uid:gid` on
 * a rootful engine; `0:0` on rootless Docker, whose container root is the user who runs the daemon (with
 * every capability dropped it has no more rights than that user); `uid:gid` in a `keep-id` user namespace on
 * rootless Podman. For example a rootful Docker and user 1000:1000 give `{ user: "1000:1000" }`.
 */
export function containerIdentity(
  engine: EngineKind,
  hostUser: { uid: number; gid: number } | null,
): ContainerIdentity {
  if (hostUser === null) return {};
  const user = `${hostUser.uid}:${hostUser.gid}`;
  if (!engine.rootless) return { user };
  return engine.podman ? { user, usernsMode: "keep-id" } : { user: "0:0" };
}

/** One command's container, as the settings of the model and the command ask for it. */
export interface DockerCommandSpec {
  image: string;
  workspace: string;
  command: string;
  args: readonly string[];
  /** The default bridge network; false: no network at all (`none`). */
  network: boolean;
  /** `host:ip` entries for /etc/hosts (`--add-host`). */
  addHosts: readonly string[];
  limits: ContainerLimits;
  /** CPUs the container may use at once (a rate; `limits.cpuSeconds` bounds the total per process). */
  cpus: number;
  identity: ContainerIdentity;
  /** The engine is Podman, which fills in open-file and process limits of its own (see {@link PODMAN_ULIMITS}); default false. */
  podman?: boolean;
  /** Labels that mark the container as karenina's. */
  labels: Record<string, string>;
}

/**
 * The open-file and process limits named for Podman. Its Docker-compatible API fills in nofile=1048576 and
 * nproc=4194304 for a rootful container whose request does not name them (containers.conf's `default_ulimits`
 * is not read there): above the hard limits an engine without CAP_SYS_RESOURCE may raise (root in a container,
 * a CI runner), where no container starts at all ("error setting rlimits ... operation not permitted"). These
 * are Linux's own defaults for open files (1024 soft, 4096 hard), under any hard limit, and 4096 processes of the
 * command's uid (not enforced for uid 0; `PidsLimit` is what bounds the container's processes). Docker fills in
 * nothing: its containers keep the daemon's limits.
 */
export const PODMAN_ULIMITS = Object.freeze([
  { Name: "nofile", Soft: 1024, Hard: 4096 },
  { Name: "nproc", Soft: 4096, Hard: 4096 },
]);

/** The size of the private /tmp, in MB: at most 256, never more than the memory limit it counts against. */
const TMP_MAX_MB = 256;

/**
 * The Engine API's create options for one command: the image's own PATH kept, the command run as given (no
 * shell; the image's entrypoint replaced) under a small init that reaps and forwards signals; the workspace
 * bound read-write at its own path and the working directory; the root file system read-only with a private
 * `/tmp`; every capability dropped, no new privileges; memory (no swap), CPU rate, CPU time, process and
 * core-dump limits; no network unless asked for; no log kept by the daemon (output is read by attaching); no
 * stdin, no terminal.
 */
export function dockerCreateOptions(spec: DockerCommandSpec): ContainerCreateOptions {
  const memoryMb = Math.max(1, Math.floor(spec.limits.memoryBytes / 1024 ** 2));
  return {
    Image: spec.image,
    Entrypoint: [spec.command],
    Cmd: [...spec.args],
    WorkingDir: spec.workspace,
    Env: [`HOME=${spec.workspace}`, "TMPDIR=/tmp", "LANG=C.UTF-8"],
    ...(spec.identity.user === undefined ? {} : { User: spec.identity.user }),
    Labels: { ...spec.labels },
    AttachStdin: false,
    AttachStdout: true,
    AttachStderr: true,
    OpenStdin: false,
    Tty: false,
    HostConfig: {
      Init: true,
      Mounts: [{ Type: "bind", Source: spec.workspace, Target: spec.workspace, ReadOnly: false }],
      ReadonlyRootfs: true,
      Tmpfs: { "/tmp": `rw,nosuid,nodev,size=${Math.min(TMP_MAX_MB, memoryMb)}m` },
      CapDrop: ["ALL"],
      SecurityOpt: ["no-new-privileges"],
      Privileged: false,
      ...(spec.identity.usernsMode === undefined ? {} : { UsernsMode: spec.identity.usernsMode }),
      NetworkMode: spec.network ? "bridge" : "none",
      ExtraHosts: [...spec.addHosts],
      Memory: spec.limits.memoryBytes,
      MemorySwap: spec.limits.memoryBytes,
      NanoCpus: Math.round(spec.cpus * 1e9),
      PidsLimit: spec.limits.maxProcesses,
      Ulimits: [
        { Name: "cpu", Soft: spec.limits.cpuSeconds, Hard: spec.limits.cpuSeconds + 1 },
        { Name: "core", Soft: 0, Hard: 0 },
        ...(spec.podman ? PODMAN_ULIMITS.map((limit) => ({ ...limit })) : []),
      ],
      LogConfig: { Type: "none", Config: {} },
      AutoRemove: false,
    },
  };
}

/** How an `--add-host` entry is written: a name, a colon, an IPv4/IPv6 address or `host-gateway`. */
const ADD_HOST = /^[^\s:]+:(host-gateway|[0-9A-Fa-f:.]+)$/;

/** The `container_add_hosts` entries that are not `name:address`. */
export function malformedAddHosts(entries: readonly string[]): string[] {
  return entries.filter((entry) => !ADD_HOST.test(entry));
}
