/**
 * A throwaway Podman engine answering the Docker Engine API on a unix socket, with a small local image, for
 * the container backend's tests and bench. No Vitest here: the bench imports it too.
 *
 * Everything lives in one temporary directory: the storage (graph root, run root), libpod's state, the
 * project's own containers.conf and storage.conf (through `CONTAINERS_CONF` / `CONTAINERS_STORAGE_CONF`, so
 * neither the host's Podman configuration nor its storage is read or touched), and the socket. The settings
 * are those that work on this kind of machine (root, cgroup v1 or hybrid): runc (crun refuses hybrid cgroups),
 * cgroupfs, default ulimits no higher than this process's hard limits (without CAP_SYS_RESOURCE podman's
 * defaults fail), catatonit as the init of `HostConfig.Init`. No image can be pulled (no network), so the
 * image is imported from host files: a static busybox (`sh`, `cat`, `sleep`…) in /bin, and the host's `node`
 * at /usr/bin/node with the libraries `ldd` lists for it, at their own paths.
 */
import { execFile, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { accessSync, constants, readFileSync, statSync } from "node:fs";
import { chmod, copyFile, mkdir, mkdtemp, open, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** A running engine: where it answers, the image it has, and how to stop it. */
export interface PodmanEngine {
  /** The API socket: `DOCKER_HOST` / `CONTAINER_HOST` = `unix://${socketPath}`. */
  readonly socketPath: string;
  /** The imported image: busybox in /bin, node at /usr/bin/node; PATH=/usr/local/bin:/usr/bin:/bin. */
  readonly image: string;
  /** Runs the `podman` CLI on this engine's storage (its global flags and configuration added). */
  podman(args: readonly string[], timeoutMs?: number): Promise<string>;
  /** Stops the service, removes any container left, unmounts and deletes the temporary directory. */
  stop(): Promise<void>;
}

/** How long each start-up step may take; the whole start-up is bounded by their sum (about a minute). */
const STEP_DEADLINE_MS = 30_000;
const SOCKET_DEADLINE_MS = 20_000;

/** The first of `names` found as an executable on PATH or in the usual system directories. */
export function findProgram(...names: string[]): string | null {
  const dirs = [
    ...(process.env.PATH ?? "").split(delimiter),
    "/usr/local/bin",
    "/usr/bin",
    "/bin",
    "/usr/sbin",
    "/sbin",
    "/usr/libexec/podman",
    "/usr/lib/podman",
  ];
  for (const name of names) {
    for (const dir of dirs) {
      if (!dir) continue;
      const path = join(dir, name);
      try {
        accessSync(path, constants.X_OK);
        if (statSync(path).isFile()) return path;
      } catch {
        // not here
      }
    }
  }
  return null;
}

/** This process's hard limit `name` from /proc/self/limits (e.g. "Max open files"), or null if unlimited/unknown. */
function hardLimit(name: string): number | null {
  try {
    const line = readFileSync("/proc/self/limits", "utf8")
      .split("\n")
      .find((l) => l.startsWith(name));
    const hard = line?.slice(name.length).trim().split(/\s+/)[1];
    return hard === undefined || hard === "unlimited" ? null : Number(hard);
  } catch {
    return null;
  }
}

/** Ulimits the container's init can set without CAP_SYS_RESOURCE: podman's defaults, capped at our hard limits. */
function defaultUlimits(): string[] {
  const nofile = Math.min(hardLimit("Max open files") ?? 1_048_576, 1_048_576);
  const nproc = Math.min(hardLimit("Max processes") ?? 4_194_304, 4_194_304);
  return [`nofile=${nofile}:${nofile}`, `nproc=${nproc}:${nproc}`];
}

const toml = (value: string) => JSON.stringify(value);

function containersConf(dir: string, runtime: string, init: string | null): string {
  return [
    "[containers]",
    `default_ulimits = [${defaultUlimits().map(toml).join(", ")}]`,
    ...(init === null ? [] : [`init_path = ${toml(init)}`]),
    'log_driver = "k8s-file"',
    "",
    "[engine]",
    `runtime = ${toml("runc")}`,
    'cgroup_manager = "cgroupfs"',
    'events_logger = "file"',
    `events_logfile_path = ${toml(join(dir, "events.log"))}`,
    `tmp_dir = ${toml(join(dir, "libpod-tmp"))}`,
    `static_dir = ${toml(join(dir, "root", "libpod"))}`,
    `volume_path = ${toml(join(dir, "root", "volumes"))}`,
    "",
    "[engine.runtimes]",
    `runc = [${toml(runtime)}]`,
    "",
    "[network]",
    `network_config_dir = ${toml(join(dir, "networks"))}`,
    "",
  ].join("\n");
}

function storageConf(dir: string, driver: string): string {
  return [
    "[storage]",
    `driver = ${toml(driver)}`,
    `graphroot = ${toml(join(dir, "root"))}`,
    `runroot = ${toml(join(dir, "runroot"))}`,
    "",
  ].join("\n");
}

/** The shared libraries `ldd` lists for `program` (absolute paths; none for a static program). */
async function sharedLibraries(program: string): Promise<string[]> {
  try {
    const { stdout } = await run("ldd", [program], { timeout: 10_000 });
    return [...stdout.matchAll(/(\/\S+)/g)].map((m) => m[1] as string).filter((p) => !p.startsWith("/proc"));
  } catch {
    return []; // "not a dynamic executable"
  }
}

/** A cheap content key of host files: their paths, sizes and modification times. */
function contentKey(paths: readonly string[]): string {
  const hash = createHash("sha256");
  for (const path of paths) {
    const s = statSync(path);
    hash.update(`${path}\0${s.size}\0${s.mtimeMs}\n`);
  }
  return hash.digest("hex").slice(0, 12);
}

/** Makes the image's root file system in `rootfs`: busybox and its applets, node and its libraries. */
async function buildRootfs(rootfs: string, busybox: string, node: string): Promise<void> {
  for (const d of ["bin", "usr/bin", "etc", "tmp", "proc", "sys", "dev", "run", "var/tmp"]) {
    await mkdir(join(rootfs, d), { recursive: true });
  }
  await chmod(join(rootfs, "tmp"), 0o1777);
  await copyFile(busybox, join(rootfs, "bin", "busybox"));
  const { stdout } = await run(busybox, ["--list"], { timeout: 10_000 });
  for (const applet of stdout.split("\n").filter((a) => a && a !== "busybox" && !a.includes("/"))) {
    await symlink("busybox", join(rootfs, "bin", applet)).catch(() => undefined);
  }
  await copyFile(node, join(rootfs, "usr", "bin", "node"));
  for (const library of new Set([...(await sharedLibraries(busybox)), ...(await sharedLibraries(node))])) {
    await mkdir(join(rootfs, dirname(library)), { recursive: true });
    await copyFile(library, join(rootfs, library)); // copyFile follows symlinks: the real file, at the name ldd used
  }
  await writeFile(
    join(rootfs, "etc", "passwd"),
    "root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/sh\n",
  );
  await writeFile(join(rootfs, "etc", "group"), "root:x:0:\nnogroup:x:65534:\n");
}

/** Resolves when the socket answers `GET /_ping` with 200; rejects past the deadline or when `exited` says so. */
async function waitForSocket(
  socketPath: string,
  exited: () => string | null,
  deadlineMs: number,
): Promise<void> {
  const until = Date.now() + deadlineMs;
  for (;;) {
    const gone = exited();
    if (gone !== null) throw new Error(gone);
    const ok = await new Promise<boolean>((resolve) => {
      const req = request({ socketPath, path: "/_ping", timeout: 2_000 }, (res) => {
        res.resume();
        resolve(res.statusCode === 200);
      });
      req.on("error", () => resolve(false));
      req.on("timeout", () => {
        req.destroy();
        resolve(false);
      });
      req.end();
    });
    if (ok) return;
    if (Date.now() > until) throw new Error(`the API socket did not answer within ${deadlineMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Unmounts (lazily) whatever is still mounted under `dir`, deepest first. */
async function unmountUnder(dir: string): Promise<void> {
  const mounts = (await readFile("/proc/self/mountinfo", "utf8").catch(() => ""))
    .split("\n")
    .map((line) => line.split(" ")[4] ?? "")
    .filter((point) => point === dir || point.startsWith(`${dir}/`))
    .sort((a, b) => b.length - a.length);
  for (const point of mounts) await run("umount", ["-l", point], { timeout: 10_000 }).catch(() => undefined);
}

/**
 * What the watchdog does once this process is gone without stopping the engine (killed, or its output cut):
 * stops the service, removes its containers, unmounts and deletes the directory. `$1` this process's pid,
 * `$2` the directory, then the podman command with its global flags.
 */
const WATCHDOG = `parent=$1; dir=$2; shift 2
while kill -0 "$parent" 2>/dev/null; do sleep 1; done
if [ -f "$dir/service.pid" ]; then
  pid=$(cat "$dir/service.pid"); kill -TERM "$pid" 2>/dev/null && sleep 2; kill -KILL "$pid" 2>/dev/null
fi
"$@" rm --all --force --time 0 >/dev/null 2>&1
awk -v d="$dir" '$5 == d || index($5, d "/") == 1 { print $5 }' /proc/self/mountinfo | sort -r |
  while read -r point; do umount -l "$point"; done
rm -rf "$dir"
`;

/** A detached shell that cleans up after this process if it dies first; killed by a normal stop. */
function startWatchdog(dir: string, podman: readonly string[], env: NodeJS.ProcessEnv) {
  const watchdog = spawn("sh", ["-c", WATCHDOG, "watchdog", String(process.pid), dir, ...podman], {
    env,
    cwd: dir,
    detached: true,
    stdio: "ignore",
  });
  watchdog.unref();
  return watchdog;
}

/** The last lines of a log file, for an error message. */
async function tail(path: string, lines = 5): Promise<string> {
  const text = await readFile(path, "utf8").catch(() => "");
  return text.trim().split("\n").slice(-lines).join(" | ");
}

/**
 * Starts `podman system service --time=0` on a socket in a new temporary directory, with its own storage and
 * configuration, and imports the test image into it. Bounded: each step has a deadline (about a minute in all).
 * @throws when podman, runc or busybox is missing, or the engine does not start (the reason in the message);
 * the temporary directory is then removed.
 */
export async function startPodmanEngine(): Promise<PodmanEngine> {
  const podmanPath = findProgram("podman");
  if (podmanPath === null)
    throw new Error("podman is not installed (apt-get install podman runc busybox-static)");
  const runc = findProgram("runc");
  if (runc === null) throw new Error("runc is not installed (apt-get install runc): crun does not run here");
  const busybox = findProgram("busybox");
  if (busybox === null)
    throw new Error("busybox is not installed (apt-get install busybox-static): the test image needs it");
  const init = findProgram("catatonit", "tini-static", "tini");
  const node = process.execPath;

  const dir = await mkdtemp(join(tmpdir(), "karenina-podman-"));
  const socketPath = join(dir, "podman.sock");
  const log = join(dir, "service.log");
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    CONTAINERS_CONF: join(dir, "containers.conf"),
    CONTAINERS_STORAGE_CONF: join(dir, "storage.conf"),
    CONTAINERS_REGISTRIES_CONF: join(dir, "registries.conf"),
  };
  for (const remote of ["CONTAINER_HOST", "DOCKER_HOST", "CONTAINER_CONNECTION"]) delete env[remote];
  const globalFlags = () => [
    "--root",
    join(dir, "root"),
    "--runroot",
    join(dir, "runroot"),
    "--tmpdir",
    join(dir, "libpod-tmp"),
    "--runtime",
    runc,
    "--cgroup-manager",
    "cgroupfs",
  ];
  const podman = async (args: readonly string[], timeoutMs = STEP_DEADLINE_MS) => {
    const { stdout } = await run(podmanPath, [...globalFlags(), ...args], {
      env,
      timeout: timeoutMs,
      killSignal: "SIGKILL",
      maxBuffer: 16 * 1024 * 1024,
    });
    return stdout;
  };
  let service: ReturnType<typeof spawn> | undefined;
  let serviceExit: string | null = null;
  const watchdog = startWatchdog(dir, [podmanPath, ...globalFlags()], env);

  const stop = async () => {
    watchdog.kill("SIGKILL");
    if (service !== undefined && serviceExit === null) {
      const exited = new Promise<void>((resolve) => service?.once("exit", () => resolve()));
      service.kill("SIGTERM");
      const stopped = await Promise.race([exited.then(() => true), delay(5_000).then(() => false)]);
      if (!stopped) {
        service.kill("SIGKILL");
        await Promise.race([exited, delay(2_000)]);
      }
    }
    await podman(["rm", "--all", "--force", "--time", "0"], 20_000).catch(() => undefined);
    await unmountUnder(dir);
    await rm(dir, { recursive: true, force: true, maxRetries: 3 });
  };

  try {
    await writeFile(join(dir, "registries.conf"), "unqualified-search-registries = []\n");
    await writeFile(join(dir, "containers.conf"), containersConf(dir, runc, init));
    let driverError = "";
    for (const driver of ["overlay", "vfs"]) {
      await writeFile(join(dir, "storage.conf"), storageConf(dir, driver));
      try {
        await podman(["info", "--format", "{{.Store.GraphDriverName}}"]);
        driverError = "";
        break;
      } catch (error) {
        driverError = `podman info (${driver} storage) failed: ${firstLine(error)}`;
        await unmountUnder(dir);
        await rm(join(dir, "root"), { recursive: true, force: true });
        await rm(join(dir, "runroot"), { recursive: true, force: true });
      }
    }
    if (driverError) throw new Error(driverError);

    const image = `localhost/karenina-test-node:${contentKey([busybox, node])}`;
    const rootfs = join(dir, "rootfs");
    await buildRootfs(rootfs, busybox, node);
    const tarball = join(dir, "rootfs.tar");
    await run("tar", ["-C", rootfs, "-cf", tarball, "."], { timeout: STEP_DEADLINE_MS });
    await rm(rootfs, { recursive: true, force: true });
    await podman(["import", "--change", "ENV PATH=/usr/local/bin:/usr/bin:/bin", tarball, image]);
    await rm(tarball, { force: true });

    const logFile = await open(log, "w");
    service = spawn(podmanPath, [...globalFlags(), "system", "service", "--time=0", `unix://${socketPath}`], {
      env,
      // conmon, started from the service, writes an `oom` marker into its working directory after an
      // out-of-memory kill: keep it in the engine's folder, not the caller's.
      cwd: dir,
      stdio: ["ignore", logFile.fd, logFile.fd],
    });
    await logFile.close();
    if (service.pid !== undefined) await writeFile(join(dir, "service.pid"), String(service.pid));
    service.once("exit", (code, signal) => {
      serviceExit = `podman system service exited (${signal ?? code})`;
    });
    service.once("error", (error) => {
      serviceExit = `podman system service could not start (${error.message})`;
    });
    await waitForSocket(socketPath, () => serviceExit, SOCKET_DEADLINE_MS);
    return { socketPath, image, podman, stop };
  } catch (error) {
    const reason = `${firstLine(error)} ${await tail(log)}`.trim();
    await stop().catch(() => undefined);
    throw new Error(`the Podman engine did not start: ${reason}`);
  }
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/** An exec error's useful part: the command's stderr's last line, else the message's first line. */
function firstLine(error: unknown): string {
  const stderr = String((error as { stderr?: unknown }).stderr ?? "").trim();
  if (stderr) return stderr.split("\n").at(-1) ?? stderr;
  return (error instanceof Error ? error.message : String(error)).split("\n")[0] ?? "";
}
