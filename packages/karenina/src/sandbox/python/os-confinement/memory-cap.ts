import { SandboxConfinementError } from "./errors.js";

/** The environment variable that sets the memory cap of every sandbox process, in MB, instead of the default. */
export const MEMORY_CAP_VARIABLE = "KARENINA_SANDBOX_MEMORY_MB";

/**
 * What a Pyodide process holds besides the code's allowance, in MB: Node and Pyodide once started (~250 MB of
 * private writable memory), the 256 MB JavaScript heap at its fullest, the interpreter's WebAssembly heap and
 * the copy of it kept to restore state, with room to spare.
 */
export const PYODIDE_PROCESS_BASE_MB = 960;

/**
 * The cap on the whole memory of a Pyodide process whose code may grow the interpreter's heap by
 * `codeAllowanceMb`: {@link PYODIDE_PROCESS_BASE_MB} plus that allowance (1024 MB for the default 64), or the
 * value of `KARENINA_SANDBOX_MEMORY_MB` when set.
 */
export function sandboxMemoryCapMb(codeAllowanceMb: number): number {
  const value = process.env[MEMORY_CAP_VARIABLE];
  if (value === undefined || value === "") return PYODIDE_PROCESS_BASE_MB + codeAllowanceMb;
  const mb = Number(value);
  if (!Number.isInteger(mb) || mb < 256) {
    throw new SandboxConfinementError(
      `${MEMORY_CAP_VARIABLE} is ${JSON.stringify(value)}; set it to a whole number of MB, at least 256, or unset it`,
    );
  }
  return mb;
}
