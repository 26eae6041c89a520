/**
 * Where the operating system cannot confine a sandbox process (no util-linux, namespaces refused, not Linux),
 * the sandbox still starts, but never silently: the report says what is not confined, one process warning
 * names it, and `KARENINA_SANDBOX_CONFINEMENT=require` turns the fallback into an error. The machines here are
 * this one with a program taken away, so the processes and the probe are real.
 */
import type { ChildProcess } from "node:child_process";
import { afterEach, describe, expect, test } from "vitest";
import { SandboxError } from "../errors.js";
import type { EscapeOutcome } from "./__fixtures__/escape-probe.js";
import {
  CONFINEMENT_VARIABLE,
  createOsConfinement,
  type HostFacts,
  MEMORY_CAP_VARIABLE,
  machineConfinement,
  machineFacts,
  type OsConfinement,
  SandboxConfinementError,
  sandboxMemoryCapMb,
  UNCONFINED_WARNING_CODE,
} from "./os-confinement/index.js";
import { PythonSandbox } from "./python-sandbox.js";
import { spawnSandboxProcess } from "./sandbox-process.js";

const probes: ChildProcess[] = [];

afterEach(async () => {
  delete process.env[CONFINEMENT_VARIABLE];
  delete process.env[MEMORY_CAP_VARIABLE];
  for (const child of probes.splice(0)) {
    child.kill("SIGKILL");
    if (child.exitCode === null && child.signalCode === null) await new Promise((r) => child.once("exit", r));
  }
});

/** Starts the escape probe under `confinement` and has it answer once over IPC. */
async function probeAnswers(confinement: OsConfinement): Promise<EscapeOutcome> {
  const child = await spawnSandboxProcess(new URL("./__fixtures__/escape-probe.ts", import.meta.url), {
    jsHeapLimitMb: 64,
    readPaths: [],
    confinement,
  });
  probes.push(child);
  return new Promise((resolve, reject) => {
    child.once("message", (outcome) => resolve(outcome as EscapeOutcome));
    child.once("exit", (code, signal) =>
      reject(new Error(`the probe ended (${signal ?? code}) without answering`)),
    );
    child.send({ attempt: "kill", pid: 0x3fffff });
  });
}

/** This machine without `unshare`: no namespaces. */
function withoutUnshare(): HostFacts {
  const facts = machineFacts();
  return { ...facts, tools: { ...facts.tools, unshare: null } };
}

function collectWarnings(): { readonly warnings: Error[]; stop(): void } {
  const warnings: Error[] = [];
  const listener = (warning: Error): void => {
    if ((warning as NodeJS.ErrnoException).code === UNCONFINED_WARNING_CODE) warnings.push(warning);
  };
  process.on("warning", listener);
  return { warnings, stop: () => process.off("warning", listener) };
}

describe("a machine that cannot confine everything", () => {
  test("without namespaces, the process still starts and talks over IPC, the report says network and signals are not confined, and one process warning names them", async () => {
    const facts = withoutUnshare();
    const confinement = createOsConfinement(facts);
    const collected = collectWarnings();
    try {
      expect(await probeAnswers(confinement)).toEqual({ outcome: "ESRCH" });
      expect(await probeAnswers(confinement)).toEqual({ outcome: "ESRCH" });
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      collected.stop();
    }
    const report = await confinement.report();
    expect(report).toMatchObject({
      network: false,
      unixSockets: false,
      signals: false,
      memory: facts.platform === "linux" && facts.tools.prlimit !== null,
      dieWithHost: facts.platform === "linux" && facts.tools.setpriv !== null,
    });
    expect(collected.warnings).toHaveLength(1);
    expect(collected.warnings[0]?.message).toMatch(
      /not confined by the operating system in: network, Unix sockets, signals/,
    );
    expect(collected.warnings[0]?.message).toContain(CONFINEMENT_VARIABLE);
  });

  test("with KARENINA_SANDBOX_CONFINEMENT=require, a process that cannot be fully confined is not started", async () => {
    const warned: string[] = [];
    const confinement = createOsConfinement(withoutUnshare(), (message) => warned.push(message));
    process.env[CONFINEMENT_VARIABLE] = "require";
    const error = await probeAnswers(confinement).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SandboxConfinementError);
    expect(error).toBeInstanceOf(SandboxError);
    expect((error as Error).message).toMatch(
      /cannot be confined by the operating system here in: network, Unix sockets, signals,/,
    );
    expect(probes).toHaveLength(0);
    expect(warned).toEqual([]);
  });

  test("with KARENINA_SANDBOX_CONFINEMENT=require, this machine starts the process only if it confines everything", async () => {
    process.env[CONFINEMENT_VARIABLE] = "require";
    const report = await machineConfinement().report();
    const complete =
      report.network && report.unixSockets && report.signals && report.memory && report.dieWithHost;
    const started = probeAnswers(machineConfinement());
    if (complete) {
      expect(await started).toEqual({ outcome: "ESRCH" });
    } else {
      await expect(started).rejects.toThrow(SandboxConfinementError);
    }
  });

  test("an unknown KARENINA_SANDBOX_CONFINEMENT value is refused rather than ignored, by the Python sandbox too", async () => {
    process.env[CONFINEMENT_VARIABLE] = "requried";
    await expect(probeAnswers(machineConfinement())).rejects.toThrow(
      /KARENINA_SANDBOX_CONFINEMENT is "requried"/,
    );
    const sandbox = PythonSandbox.create();
    await expect(sandbox.start()).rejects.toThrow(SandboxConfinementError);
    await sandbox.close();
  });

  test("on a system other than Linux nothing is confined, the report says why, and the command is left as it is", async () => {
    const warned: string[] = [];
    const confinement = createOsConfinement({ ...machineFacts(), platform: "darwin" }, (m) => warned.push(m));
    expect(await confinement.report()).toEqual({
      network: false,
      unixSockets: false,
      signals: false,
      memory: false,
      dieWithHost: false,
      how: "not confined: darwin is not Linux",
    });
    const options = { memoryCapMb: 1024, readPaths: ["/srv/x"] };
    expect(await confinement.wrap(["/bin/node", "x.js"], options)).toEqual(["/bin/node", "x.js"]);
    expect(warned).toHaveLength(1);
    expect(warned[0]).toContain("network, Unix sockets, signals, memory, death with its host");
  });
});

describe("the memory cap", () => {
  test("is 960 MB plus the code's allowance, or KARENINA_SANDBOX_MEMORY_MB; a value that is not a number of MB is refused", () => {
    expect(sandboxMemoryCapMb(64)).toBe(1024);
    expect(sandboxMemoryCapMb(512)).toBe(1472);
    process.env[MEMORY_CAP_VARIABLE] = "2048";
    expect(sandboxMemoryCapMb(64)).toBe(2048);
    process.env[MEMORY_CAP_VARIABLE] = "lots";
    expect(() => sandboxMemoryCapMb(64)).toThrow(SandboxConfinementError);
  });
});
