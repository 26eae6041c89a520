import { KareninaError } from "../../errors/index.js";
import { PortError } from "../errors.js";
import type { ReplayKey } from "./replay-schema.js";

/**
 * A replay found nothing for a request: a strict replay store without a matching entry (`key` is the
 * replay key asked for), or a recording directory without the request's file (`key` is the request key).
 */
export class ReplayMissError extends PortError {
  override readonly name: string = "ReplayMissError";

  constructor(
    message: string,
    readonly key: ReplayKey | string,
  ) {
    super(message);
  }
}

/** A replay or recording file could not be read, or holds bad data at `jsonPath`. */
export class ReplayFileError extends KareninaError {
  override readonly name: string = "ReplayFileError";

  constructor(
    readonly file: string,
    readonly jsonPath: string,
    readonly problem: string,
    options?: ErrorOptions,
  ) {
    super(`${file}: ${jsonPath}: ${problem}`, options);
  }

  /**
   * `file` could not be written: the problem is `problem(reason)`, the reason being the file-system error's
   * code (looked up through wrapping causes) or "write failed"; `error` is kept as the cause.
   */
  static writeFailed(file: string, problem: (reason: string) => string, error: unknown): ReplayFileError {
    return new ReplayFileError(file, "$", problem(errnoCode(error) ?? "write failed"), { cause: error });
  }
}

/** The `code` of a file-system error, looked up through wrapping causes. */
function errnoCode(error: unknown): string | undefined {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; depth++) {
    const code = (current as NodeJS.ErrnoException).code;
    if (typeof code === "string") return code;
    current = current.cause;
  }
  return undefined;
}
