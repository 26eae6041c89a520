/**
 * The third wall: should code get out of Pyodide and past Node's permission model (which, on Node 20, stops
 * neither sockets nor signals), the operating system still keeps it off the network, away from other
 * processes and within its memory cap. A probe started exactly as the Pyodide worker is tries each escape;
 * the same probe started without confinement shows that each of them works there.
 *
 * Where this machine cannot confine something, the test checks that the fallback was announced instead, and
 * fails in CI (CI=true, root, Linux), where everything must be confined.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { ended, endProbes, noConfinement, startProbe } from "./__fixtures__/escape-probes.js";
import { isRunning, processStatus, sandboxNodeProcess, waitFor } from "./__fixtures__/sandbox-processes.js";
import {
  createOsConfinement,
  machineFacts,
  type SandboxConfinement,
  sandboxConfinement,
  sandboxMemoryCapMb,
  UNCONFINED_WARNING_CODE,
} from "./os-confinement/index.js";

const CI_REQUIRES_CONFINEMENT =
  process.env.CI === "true" && process.platform === "linux" && process.geteuid?.() === 0;

/** Warnings that a sandbox process is not fully confined, emitted by this machine's confinement. */
const fallbackWarnings: Error[] = [];
process.on("warning", (warning) => {
  if ((warning as NodeJS.ErrnoException).code === UNCONFINED_WARNING_CODE) fallbackWarnings.push(warning);
});

/** The same probe, started as it is: what code that got out could do without the defences. */
const unconfined = noConfinement();

let report: SandboxConfinement;

beforeAll(async () => {
  report = await sandboxConfinement();
});

/** Where this machine does not confine `kind`: CI must not be such a machine, and one warning named it. */
function expectAnnouncedFallback(kind: string): void {
  expect(CI_REQUIRES_CONFINEMENT, `in CI, as root on Linux, ${kind} must be confined: ${report.how}`).toBe(
    false,
  );
  expect(fallbackWarnings).toHaveLength(1);
  expect(fallbackWarnings[0]?.message).toContain(kind);
}

const victims: ChildProcess[] = [];

/** A process of the host's, for the probe to try to kill. */
function startVictim(): ChildProcess {
  const victim = spawn("sleep", ["30"], { stdio: "ignore" });
  victims.push(victim);
  return victim;
}

afterEach(async () => {
  await endProbes();
  for (const child of victims.splice(0)) {
    child.kill("SIGKILL");
    await ended(child);
  }
});

let server: Server;
let connections = 0;
let port: number;

beforeAll(async () => {
  server = createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as { port: number }).port;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 200));

describe("a sandbox process confined by the operating system", () => {
  test("cannot open a connection to a server of the host on 127.0.0.1", async () => {
    connections = 0;
    const probe = await startProbe();
    const result = await probe.attempt({ attempt: "connect", port });
    await settle();
    if (!report.network) {
      expectAnnouncedFallback("network");
      return;
    }
    expect(result).not.toEqual({ outcome: "connected" });
    expect(result).toHaveProperty("outcome");
    expect(connections).toBe(0);
  });

  test("cannot kill a process of the host", async () => {
    const victim = startVictim();
    const probe = await startProbe();
    const result = await probe.attempt({ attempt: "kill", pid: victim.pid as number });
    await settle();
    if (!report.signals) {
      expectAnnouncedFallback("signals");
      return;
    }
    expect(result).toEqual({ outcome: "ESRCH" });
    expect(isRunning(victim.pid as number)).toBe(true);
    expect(victim.signalCode).toBeNull();
  });

  test("cannot take 2 GB of memory outside its heaps, and its host is unharmed", async () => {
    const probe = await startProbe();
    const result = await probe.attempt({ attempt: "allocate", mb: 2048 });
    if (!report.memory) {
      expectAnnouncedFallback("memory");
      return;
    }
    if ("died" in result) {
      expect(result.died).not.toBe("code 0");
    } else {
      expect(result.outcome).not.toBe("allocated");
      expect(result.allocatedMb).toBeLessThan(sandboxMemoryCapMb(64));
    }
    expect(process.memoryUsage.rss()).toBeLessThan(1024 * 1024 * 1024);
    const next = await startProbe();
    expect(await next.attempt({ attempt: "kill", pid: 0x3fffff })).toHaveProperty("outcome");
  });

  test.runIf(process.platform === "linux")(
    "holds no capability, cannot gain privileges, and has its memory capped",
    async () => {
      const probe = await startProbe();
      await probe.attempt({ attempt: "kill", pid: 0x3fffff });
      const pid = sandboxNodeProcess(process.pid, probe.child.pid as number) as number;
      const status = processStatus(pid);
      if (!report.dieWithHost || !report.memory) {
        expectAnnouncedFallback(report.dieWithHost ? "memory" : "death with its host");
        return;
      }
      expect(status?.NoNewPrivs).toBe("1");
      expect(status?.CapEff).toMatch(/^0+$/);
      expect(status?.CapPrm).toMatch(/^0+$/);
      const limits = readFileSync(`/proc/${pid}/limits`, "utf8");
      const dataLimit = String(sandboxMemoryCapMb(64) * 1024 * 1024);
      expect(limits).toMatch(new RegExp(`Max data size\\s+${dataLimit}\\s+${dataLimit}\\s+bytes`));
      expect(limits).toMatch(/Max core file size\s+0\s+0\s+bytes/);
    },
  );

  test("is ended by the host's SIGKILL, wrapping programs and all, while it runs an endless loop", async () => {
    const probe = await startProbe();
    await probe.attempt({ attempt: "kill", pid: 0x3fffff });
    const pid = sandboxNodeProcess(process.pid, probe.child.pid as number);
    expect(pid).toBeDefined();
    probe.child.send({ attempt: "spin" });
    probe.child.kill("SIGKILL");
    await ended(probe.child);
    expect(await waitFor(() => !isRunning(pid as number), 5000)).toBe(true);
  });
});

describe("a host that is not root", () => {
  test.runIf(process.platform === "linux")(
    "gets the same confinement from a user namespace, where the kernel allows one",
    async () => {
      const warned: string[] = [];
      const asUser = createOsConfinement({ ...machineFacts(), isRoot: false }, (m) => warned.push(m));
      const userReport = await asUser.report();
      if (!userReport.network) {
        expect(userReport.how).toMatch(/unshare --user --net --pid .*failed/);
        expect(warned).toEqual([]);
        return;
      }
      expect(userReport.how).toMatch(/made in a user namespace/);
      connections = 0;
      const victim = startVictim();
      const probe = await startProbe(asUser);
      expect(await probe.attempt({ attempt: "connect", port })).not.toEqual({ outcome: "connected" });
      expect(await probe.attempt({ attempt: "kill", pid: victim.pid as number })).toEqual({
        outcome: "ESRCH",
      });
      await settle();
      expect(connections).toBe(0);
      expect(isRunning(victim.pid as number)).toBe(true);
      const pid = sandboxNodeProcess(process.pid, probe.child.pid as number) as number;
      expect(processStatus(pid)?.CapEff).toMatch(/^0+$/);
    },
  );
});

describe("without confinement, what the defences stop", () => {
  test("the same probe connects to the host's server, kills its process and takes 2 GB", async () => {
    connections = 0;
    const victim = startVictim();
    const probe = await startProbe(unconfined);
    expect(await probe.attempt({ attempt: "connect", port })).toEqual({ outcome: "connected" });
    expect(await probe.attempt({ attempt: "kill", pid: victim.pid as number })).toEqual({
      outcome: "allowed",
    });
    expect(await probe.attempt({ attempt: "allocate", mb: 2048 })).toEqual({
      outcome: "allocated",
      allocatedMb: 2048,
    });
    await ended(victim);
    expect(victim.signalCode).toBe("SIGKILL");
    expect(connections).toBe(1);
  });
});

describe("this machine", () => {
  test.runIf(CI_REQUIRES_CONFINEMENT)("confines everything in CI, as root on Linux", () => {
    expect(report).toMatchObject({
      network: true,
      unixSockets: true,
      signals: true,
      memory: true,
      dieWithHost: true,
    });
  });
});
