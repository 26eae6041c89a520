import type { RegexTrait } from "../model/rubric/index.js";
import { compilePythonRegex, PythonRegexError } from "../python-regex/index.js";
import { TraitEvaluationError } from "./errors.js";

/**
 * Evaluates a regex trait as the original does (spec 03 §3): Python `re.search(pattern, text)`, with
 * `IGNORECASE` when `case_sensitive` is false, negated when `invert_result` is true.
 * @throws TraitEvaluationError "Failed to evaluate regex trait '<name>': …" when the pattern cannot run
 *   (traits parsed through `RegexTraitSchema` were already checked).
 * @example
 * const cites = parseRubricTrait({ name: "cites", pattern: String.raw`\[\d+\]` }, "regex");
 * evaluateRegexTrait(cites, "as shown in [12]"); // true
 * evaluateRegexTrait({ ...cites, invert_result: true }, "as shown in [12]"); // false
 */
export function evaluateRegexTrait(trait: RegexTrait, text: string): boolean {
  let regex: RegExp;
  try {
    regex = compilePythonRegex(trait.pattern, { ignoreCase: !trait.case_sensitive });
  } catch (error) {
    if (!(error instanceof PythonRegexError)) throw error;
    throw new TraitEvaluationError(
      trait.name,
      "regex",
      "pattern",
      `Failed to evaluate regex trait '${trait.name}': ${error.message}`,
    );
  }
  const matched = regex.test(text);
  return trait.invert_result ? !matched : matched;
}
