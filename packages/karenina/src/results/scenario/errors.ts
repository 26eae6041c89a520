import { jsonPath } from "../../checkpoint/index.js";
import { KareninaError, type SchemaProblem } from "../../errors/index.js";

/**
 * An item of `scenario_results` is not a valid scenario record (spec 08 §6.4). The message starts with the
 * original's `Invalid scenario result at index <i>`, then names each field at fault by its JSON path inside
 * the export: `Invalid scenario result at index 0: $.scenario_results[0].colour: unknown field "colour" (...)`.
 */
export class ScenarioResultRecordError extends KareninaError {
  override readonly name: string = "ScenarioResultRecordError";

  constructor(
    /** 0-based index of the record in `scenario_results`. */
    readonly index: number,
    readonly problems: readonly SchemaProblem[],
  ) {
    const where = problems.map(
      (problem) => `${jsonPath(["scenario_results", index, ...problem.path])}: ${problem.message}`,
    );
    super(`Invalid scenario result at index ${index}: ${where.join("; ")}`);
  }
}
