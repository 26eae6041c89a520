import type { Readable, Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { wantsColour } from "./colour.js";

/** Where the CLI writes; tests pass their own. */
export interface CliIo {
  out: (text: string) => void;
  err: (text: string) => void;
  /** Whether `out` takes ANSI colours (a terminal, without NO_COLOR); absent means no colour. */
  readonly colour?: boolean;
  /**
   * Whether `err` is an interactive terminal: notices for a person watching (such as "starting Python
   * sandbox…") are written only then; absent means not.
   */
  readonly errIsTerminal?: boolean;
  /**
   * Where interactive prompts (`verify --interactive`) read and write: the terminal, or streams a test drives;
   * absent when there is no terminal to ask on.
   */
  readonly prompts?: { input: Readable; output: Writable };
}

export const processIo: CliIo = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  get colour() {
    return wantsColour(process.stdout, process.env);
  },
  get errIsTerminal() {
    return process.stderr.isTTY === true;
  },
  get prompts() {
    return process.stdin.isTTY === true ? { input: process.stdin, output: process.stderr } : undefined;
  },
};

/** The example checkpoint shipped with the package, used when `inspect` is given no file. */
export const BUNDLED_EXAMPLE = fileURLToPath(new URL("../../examples/drug-targets.jsonld", import.meta.url));

/**
 * Exit codes, the same for every command:
 * - 0: done. A run: every task ran, whatever its verdicts.
 * - 1: some work failed. A run: some task failed for a system cause (connection, timeout, rate limit, server
 *   error, an unexpected error such as a rejected key), or the pass rate is below `--fail-under`; another
 *   command: the checkpoint is not ready, the verdict is false, a template could not be generated, the
 *   imported file held no question.
 * - 2: bad usage or input: a flag, a file that cannot be used, a model that cannot be reached before the run
 *   (preflight), nothing to verify.
 * - 130: interrupted (Ctrl-C); finished results are kept.
 */
export const EXIT = { ok: 0, checkFailed: 1, usage: 2, interrupted: 130 } as const;

/** The exit codes as `--help` and the README list them. */
export const EXIT_CODES_HELP = `
Exit codes:
  0    done: every task ran, whatever its verdicts
  1    some task failed for a system cause (connection, timeout, rate limit, server error, unexpected error
       such as a missing or rejected API key), the pass rate is below --fail-under, or a command's work
       failed (checkpoint validate: not ready; template check: verdict false; generate-templates: a
       template could not be written; import: no question in the file)
  2    bad usage or input: a flag, an unusable file, a model that fails the preflight, nothing to verify
  130  interrupted (Ctrl-C): finished results are kept`;

/** Thrown by a command to end with a given exit code, after it has printed what it had to say. */
export class CliExit extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`);
  }
}

/** A command-line argument the user must correct (exit code 2). */
export class CliUsageError extends Error {}
