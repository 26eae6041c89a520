import { jsonPath } from "../checkpoint/index.js";
import { KareninaError, type SchemaProblem } from "../errors/index.js";

/**
 * A verification result does not have the shape of spec 06 §1. The message names where the row came from and
 * each field at fault: `results.json: $.metadata.question_id: missing required field (expected string)`.
 */
export class VerificationResultError extends KareninaError {
  override readonly name: string = "VerificationResultError";

  constructor(
    readonly where: string,
    readonly problems: readonly SchemaProblem[],
  ) {
    super(problems.map((problem) => `${where}: ${jsonPath(problem.path)}: ${problem.message}`).join("; "));
  }
}
