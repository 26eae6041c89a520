import { KareninaError } from "../../errors/index.js";

/**
 * A prior run cannot be extended as asked (spec 04 §17, 08 §10.1): the message names the check that failed and
 * what to change. Thrown before any model is called.
 */
export class ExtendRunError extends KareninaError {
  override readonly name: string = "ExtendRunError";
}
