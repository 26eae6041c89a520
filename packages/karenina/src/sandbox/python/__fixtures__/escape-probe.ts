/**
 * Script used by the sandbox-confinement tests (written for this project). The tests start it with
 * `spawnSandboxProcess`, as the Pyodide worker is started, to play code that got out of Pyodide and past Node's
 * permission model (which, on Node 20, stops neither sockets nor signals). For each request of the host it
 * tries one thing the operating system should stop, and reports over IPC how the attempt ended.
 */
import { connect } from "node:net";

/** What the host asks the probe to try. */
export type EscapeAttempt =
  | { readonly attempt: "connect"; readonly port: number }
  /** A Unix socket, by its path (`\0name` for an abstract socket), which the permission model does not guard. */
  | { readonly attempt: "connect-unix"; readonly path: string }
  | { readonly attempt: "kill"; readonly pid: number }
  | { readonly attempt: "allocate"; readonly mb: number }
  | { readonly attempt: "spin" };

/** How an attempt ended: `"connected"`, `"allowed"`, `"allocated"`, or the error's code (or message). */
export interface EscapeOutcome {
  readonly outcome: string;
  /** For `allocate`: how many MB the probe held, every page written, when it stopped. */
  readonly allocatedMb?: number;
}

const CHUNK_MB = 64;
/** What `allocate` took, kept alive until the process ends. */
const held: Buffer[] = [];

function errorCode(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? String(error);
}

function tryConnect(target: { port: number; host: string } | { path: string }): Promise<EscapeOutcome> {
  return new Promise((resolve) => {
    const socket = connect({ ...target, timeout: 3000 });
    socket.once("connect", () => {
      socket.end();
      resolve({ outcome: "connected" });
    });
    socket.once("timeout", () => {
      socket.destroy();
      resolve({ outcome: "timeout" });
    });
    socket.once("error", (error) => resolve({ outcome: errorCode(error) }));
  });
}

function tryKill(pid: number): EscapeOutcome {
  try {
    process.kill(pid, "SIGKILL");
    return { outcome: "allowed" };
  } catch (error) {
    return { outcome: errorCode(error) };
  }
}

/** Takes `mb` of memory outside every heap, in buffers whose every page is written (so that it is resident). */
function tryAllocate(mb: number): EscapeOutcome {
  try {
    while (held.length * CHUNK_MB < mb) held.push(Buffer.allocUnsafeSlow(CHUNK_MB * 1024 * 1024).fill(1));
    return { outcome: "allocated", allocatedMb: held.length * CHUNK_MB };
  } catch (error) {
    return { outcome: errorCode(error), allocatedMb: held.length * CHUNK_MB };
  }
}

async function attempt(request: EscapeAttempt): Promise<EscapeOutcome> {
  switch (request.attempt) {
    case "connect":
      return tryConnect({ host: "127.0.0.1", port: request.port });
    case "connect-unix":
      return tryConnect({ path: request.path });
    case "kill":
      return tryKill(request.pid);
    case "allocate":
      return tryAllocate(request.mb);
    case "spin":
      for (;;) {
        // an endless loop, as untrusted code may run
      }
  }
}

process.on("message", (request: EscapeAttempt) => {
  attempt(request).then((outcome) => process.send?.(outcome));
});
