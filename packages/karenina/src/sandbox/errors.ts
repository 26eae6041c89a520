import { KareninaError } from "../errors/index.js";

/**
 * Sandboxed code could not run to completion for a reason of the sandbox itself: it could not start, it was
 * closed, or the interpreter crashed. The subclasses name the limits and the code's own errors.
 */
export class SandboxError extends KareninaError {
  override readonly name: string = "SandboxError";
}

/** The code ran longer than the per-call time limit; its interpreter was stopped (and is restarted on the next call). */
export class SandboxTimeoutError extends SandboxError {
  override readonly name = "SandboxTimeoutError";

  constructor(readonly timeoutMs: number) {
    super(`the sandboxed code ran longer than its limit of ${timeoutMs} ms and was stopped`);
  }
}

/** The code needed more memory than the sandbox allows; its interpreter was discarded. */
export class SandboxMemoryError extends SandboxError {
  override readonly name = "SandboxMemoryError";

  constructor(
    readonly limitMb: number,
    readonly detail: string,
  ) {
    super(`the sandboxed code exceeded its memory limit of ${limitMb} MB (${detail})`);
  }
}
