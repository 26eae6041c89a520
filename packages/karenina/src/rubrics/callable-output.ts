import { describeValue } from "../errors/index.js";
import type { CallableTrait } from "../model/rubric/index.js";
import { TraitEvaluationError } from "./errors.js";

/** What a callable trait evaluates to: a bool (boolean kind), a number (score), a class index (literal). */
export type CallableValue = boolean | number;

/**
 * Checks a callable's return value against its trait and turns it into the trait's result (spec 03 §4.2):
 * boolean → the bool, negated by `invert_result`; score → the number unchanged (a bool is accepted, as Python
 * counts it as an int), refused below `min_score` or above `max_score`; literal → the index of the returned
 * label in `classes` (exact, case-sensitive match).
 * @throws TraitEvaluationError naming the trait and the field the value breaks (`kind`, `min_score`,
 *   `max_score` or `classes`).
 * @example
 * const tone = parseRubricTrait({ name: "tone", kind: "literal", callable_code: "", classes: { formal: "F", casual: "C" } }, "callable");
 * checkCallableOutput(tone as CallableTrait, "casual"); // 1
 */
export function checkCallableOutput(trait: CallableTrait, output: unknown): CallableValue {
  const fail = (field: string, reason: string) =>
    new TraitEvaluationError(trait.name, "callable", field, reason);
  switch (trait.kind) {
    case "boolean":
      if (typeof output !== "boolean") {
        throw fail(
          "kind",
          `kind "boolean" needs the function to return a bool, got ${describeValue(output)}`,
        );
      }
      return trait.invert_result ? !output : output;
    case "score": {
      if (typeof output !== "boolean" && (typeof output !== "number" || !Number.isFinite(output))) {
        throw fail(
          "kind",
          `kind "score" needs the function to return a number, got ${describeValue(output)}`,
        );
      }
      const score = Number(output);
      if (trait.min_score !== null && score < trait.min_score) {
        throw fail("min_score", `score ${score} is below the minimum of ${trait.min_score}`);
      }
      if (trait.max_score !== null && score > trait.max_score) {
        throw fail("max_score", `score ${score} is above the maximum of ${trait.max_score}`);
      }
      return output;
    }
    case "literal": {
      const labels = Object.keys(trait.classes ?? {});
      const index = typeof output === "string" ? labels.indexOf(output) : -1;
      if (index === -1) {
        throw fail(
          "classes",
          `kind "literal" needs the function to return one of the class labels ${labels.map((l) => JSON.stringify(l)).join(", ")}, got ${describeValue(output)}`,
        );
      }
      return index;
    }
  }
}
