import { KareninaError } from "../errors/index.js";
import type { TraitType } from "../model/rubric/index.js";

/**
 * A trait could not be evaluated, or its evaluation gave a value the trait does not allow (a callable that
 * returns the wrong type, a score outside its range, a score trait whose range is empty, a judge reply that
 * is not usable). The message names the trait and, when one is at fault, the field.
 */
export class TraitEvaluationError extends KareninaError {
  override readonly name = "TraitEvaluationError";

  constructor(
    readonly traitName: string,
    readonly traitType: TraitType,
    readonly field: string | null,
    readonly reason: string,
  ) {
    super(`${traitType} trait "${traitName}": ${field === null ? "" : `field "${field}": `}${reason}`);
  }
}
