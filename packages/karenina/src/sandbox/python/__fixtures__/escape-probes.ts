/**
 * Helpers of the sandbox-confinement tests (written for this project): they start the escape probe exactly as
 * the Pyodide worker is started, under this machine's confinement or another, and end the probes they started.
 */
import type { ChildProcess } from "node:child_process";
import { createOsConfinement, NO_CONFINEMENT_TOOLS, type OsConfinement } from "../os-confinement/index.js";
import { spawnSandboxProcess } from "../sandbox-process.js";
import type { EscapeAttempt, EscapeOutcome } from "./escape-probe.js";

export interface Probe {
  readonly child: ChildProcess;
  /** Asks the probe to try something; `died` when the process ended instead of answering. */
  attempt(attempt: EscapeAttempt): Promise<EscapeOutcome | { readonly died: string }>;
}

/** A confinement that confines nothing: the same probe, started as it is, shows what the defences stop. */
export function noConfinement(): OsConfinement {
  return createOsConfinement(
    {
      platform: process.platform,
      isRoot: false,
      tools: NO_CONFINEMENT_TOOLS,
      node: process.execPath,
      expectedVersion: process.version,
    },
    () => undefined,
  );
}

const started: ChildProcess[] = [];

/** Starts the escape probe under `confinement` (default: this machine's), allowed to read `readPaths`. */
export async function startProbe(
  confinement?: OsConfinement,
  readPaths: readonly string[] = [],
): Promise<Probe> {
  const child = await spawnSandboxProcess(new URL("./escape-probe.ts", import.meta.url), {
    jsHeapLimitMb: 64,
    readPaths,
    ...(confinement ? { confinement } : {}),
  });
  started.push(child);
  return {
    child,
    attempt: (attempt) =>
      new Promise((resolve, reject) => {
        child.once("message", (outcome) => resolve(outcome as EscapeOutcome));
        child.once("exit", (code, signal) => resolve({ died: signal ?? `code ${code}` }));
        child.once("error", reject);
        child.send(attempt);
      }),
  };
}

/** Resolves once `child` has exited. */
export async function ended(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise((resolve) => child.once("exit", resolve));
}

/** Kills every probe started so far, and waits for them to exit. */
export async function endProbes(): Promise<void> {
  for (const child of started.splice(0)) {
    child.kill("SIGKILL");
    await ended(child);
  }
}
