import { fileURLToPath } from "node:url";

/** Where the CLI writes; tests pass their own. */
export interface CliIo {
  out: (text: string) => void;
  err: (text: string) => void;
}

export const processIo: CliIo = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
};

/** The example checkpoint shipped with the package, used when `inspect` is given no file. */
export const BUNDLED_EXAMPLE = fileURLToPath(new URL("../../examples/drug-targets.jsonld", import.meta.url));

/** Exit codes: 0 success, 1 a check failed (not ready, or a verdict of false), 2 bad usage or an unusable file. */
export const EXIT = { ok: 0, checkFailed: 1, usage: 2 } as const;

/** Thrown by a command to end with a given exit code, after it has printed what it had to say. */
export class CliExit extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`);
  }
}

/** A command-line argument the user must correct (exit code 2). */
export class CliUsageError extends Error {}
