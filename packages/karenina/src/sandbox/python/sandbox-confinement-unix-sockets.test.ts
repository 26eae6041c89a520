/**
 * Unix sockets are files: a network namespace does not hide them, and Node's permission model (Node 20) lets
 * `net.connect({ path })` through, so code that got out of Pyodide could talk to a Docker daemon or a database
 * of the host through its socket in /var/run, /run or /tmp. The sandbox process gets a root directory of its
 * own, which holds none of those directories; where the host is root it also runs as nobody, whom a root-owned
 * socket refuses even where one is in sight. Abstract sockets belong to its network namespace.
 *
 * Each server below belongs to the host (root in CI) and has mode 0600. The same probe started without
 * confinement shows that each of them is reachable there.
 */
import { accessSync, chmodSync, constants, mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import type { EscapeOutcome } from "./__fixtures__/escape-probe.js";
import { endProbes, noConfinement, startProbe } from "./__fixtures__/escape-probes.js";
import { processStatus, sandboxNodeProcess } from "./__fixtures__/sandbox-processes.js";
import {
  createOsConfinement,
  machineFacts,
  type SandboxConfinement,
  sandboxConfinement,
  UNCONFINED_WARNING_CODE,
} from "./os-confinement/index.js";

const IS_ROOT = process.geteuid?.() === 0;
const CI_REQUIRES_CONFINEMENT = process.env.CI === "true" && process.platform === "linux" && IS_ROOT;

const fallbackWarnings: Error[] = [];
process.on("warning", (warning) => {
  if ((warning as NodeJS.ErrnoException).code === UNCONFINED_WARNING_CODE) fallbackWarnings.push(warning);
});

/** A Unix socket server of the host's, which counts the connections it gets. */
interface SocketServer {
  readonly path: string;
  connections: number;
  readonly server: Server;
}

const servers: SocketServer[] = [];
const directories: string[] = [];

/** A directory of the host's under `parent`, with `mode`, removed after the tests. */
function hostDirectory(parent: string, mode: number): string {
  const directory = mkdtempSync(join(parent, "karenina-unix-sockets-"));
  chmodSync(directory, mode);
  directories.push(directory);
  return directory;
}

/** Listens at `path` (a file, made mode 0600, or an abstract name starting with `\0`). */
async function listen(path: string): Promise<SocketServer> {
  const entry: SocketServer = {
    path,
    connections: 0,
    server: createServer((socket) => {
      entry.connections++;
      socket.destroy();
    }),
  };
  await new Promise<void>((resolve) => entry.server.listen(path, resolve));
  if (!path.startsWith("\0")) chmodSync(path, 0o600);
  servers.push(entry);
  return entry;
}

function isWritable(directory: string): boolean {
  try {
    accessSync(directory, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

const RUN_IS_WRITABLE = process.platform === "linux" && isWritable("/run");

let report: SandboxConfinement;
let inTmp: SocketServer;
let inRun: SocketServer | null = null;
let abstract: SocketServer | null = null;

beforeAll(async () => {
  report = await sandboxConfinement();
  inTmp = await listen(join(hostDirectory("/tmp", 0o700), "daemon.sock"));
  if (RUN_IS_WRITABLE) inRun = await listen(join(hostDirectory("/run", 0o700), "daemon.sock"));
  if (process.platform === "linux") abstract = await listen(`\0karenina-unix-sockets-${process.pid}`);
});

afterEach(endProbes);

afterAll(async () => {
  for (const { server } of servers) await new Promise((resolve) => server.close(resolve));
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});

const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 200));

/** Where this machine does not confine Unix sockets: CI must not be such a machine, and one warning said so. */
function expectAnnouncedFallback(): void {
  expect(
    CI_REQUIRES_CONFINEMENT,
    `in CI, as root on Linux, Unix sockets must be confined: ${report.how}`,
  ).toBe(false);
  expect(fallbackWarnings).toHaveLength(1);
  expect(fallbackWarnings[0]?.message).toContain("Unix sockets");
}

/** Has a probe started under this machine's confinement connect to `target`; `null` where none is confined. */
async function machineProbeConnects(target: SocketServer): Promise<EscapeOutcome | { died: string } | null> {
  const probe = await startProbe();
  const result = await probe.attempt({ attempt: "connect-unix", path: target.path });
  await settle();
  if (!report.unixSockets) {
    expectAnnouncedFallback();
    return null;
  }
  expect(target.connections).toBe(0);
  return result;
}

describe("a sandbox process confined by the operating system", () => {
  test("cannot connect to a root-owned socket (mode 0600) of the host under /tmp: there is no /tmp in its root", async () => {
    const result = await machineProbeConnects(inTmp);
    if (result !== null) expect(result).toEqual({ outcome: "ENOENT" });
  });

  test.runIf(RUN_IS_WRITABLE)("nor to one under /run", async () => {
    const result = await machineProbeConnects(inRun as SocketServer);
    if (result !== null) expect(result).toEqual({ outcome: "ENOENT" });
  });

  test.runIf(process.platform === "linux")(
    "nor to an abstract socket of the host's, which belongs to the host's network namespace",
    async () => {
      const result = await machineProbeConnects(abstract as SocketServer);
      if (result !== null) expect(result).toEqual({ outcome: "ECONNREFUSED" });
    },
  );

  test.runIf(process.platform === "linux" && IS_ROOT)(
    "where the host is root, runs as nobody: a root-owned socket among the files it reads refuses it",
    async () => {
      const readable = hostDirectory("/tmp", 0o755);
      const inSight = await listen(join(readable, "daemon.sock"));
      const probe = await startProbe(undefined, [readable]);
      const result = await probe.attempt({ attempt: "connect-unix", path: inSight.path });
      await settle();
      if (!/as user nobody/.test(report.how)) {
        expect(CI_REQUIRES_CONFINEMENT, `in CI the sandbox must run as nobody: ${report.how}`).toBe(false);
        return;
      }
      const pid = sandboxNodeProcess(process.pid, probe.child.pid as number) as number;
      expect(processStatus(pid)?.Uid).toMatch(/^65534\s/);
      expect(result).toEqual({ outcome: "EACCES" });
      expect(inSight.connections).toBe(0);

      // As root of a user namespace (the host's root, here), the same process, which sees the same socket
      // in its root, connects: running as nobody is what refused it.
      const asRootInside = createOsConfinement({ ...machineFacts(), isRoot: false }, () => undefined);
      if (!(await asRootInside.report()).unixSockets) return;
      const rootProbe = await startProbe(asRootInside, [readable]);
      expect(await rootProbe.attempt({ attempt: "connect-unix", path: inSight.path })).toEqual({
        outcome: "connected",
      });
    },
  );

  test.runIf(process.platform === "linux" && IS_ROOT)(
    "where a file it reads is not readable by every user, runs as root without capabilities rather than not at all",
    async () => {
      const privateDirectory = hostDirectory("/tmp", 0o700);
      const probe = await startProbe(undefined, [privateDirectory]);
      expect(await probe.attempt({ attempt: "kill", pid: 0x3fffff })).toHaveProperty("outcome");
      if (!report.unixSockets) return;
      const pid = sandboxNodeProcess(process.pid, probe.child.pid as number) as number;
      expect(processStatus(pid)?.Uid).toMatch(/^0\s/);
      expect(processStatus(pid)?.CapEff).toMatch(/^0+$/);
    },
  );
});

describe("a host that is not root", () => {
  test.runIf(process.platform === "linux")(
    "gets its own root from a user namespace too, which hides the sockets from root of that namespace (their owner)",
    async () => {
      const asUser = createOsConfinement({ ...machineFacts(), isRoot: false }, () => undefined);
      const userReport = await asUser.report();
      if (!userReport.unixSockets) {
        // The kernel refused the namespaces, or a program that builds the root is missing.
        expect(userReport.how).toMatch(/unshare --user --net --pid --mount .*failed|not found in/);
        return;
      }
      const probe = await startProbe(asUser);
      expect(await probe.attempt({ attempt: "connect-unix", path: inTmp.path })).toEqual({
        outcome: "ENOENT",
      });
      await settle();
      expect(inTmp.connections).toBe(0);
    },
  );
});

describe("without confinement, what the defences stop", () => {
  test("the same probe connects to each of those sockets", async () => {
    const probe = await startProbe(noConfinement());
    for (const target of [inTmp, inRun, abstract]) {
      if (target === null) continue;
      const before = target.connections;
      expect(await probe.attempt({ attempt: "connect-unix", path: target.path })).toEqual({
        outcome: "connected",
      });
      await settle();
      expect(target.connections).toBe(before + 1);
    }
  });
});
