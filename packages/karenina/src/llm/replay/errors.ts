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
}
