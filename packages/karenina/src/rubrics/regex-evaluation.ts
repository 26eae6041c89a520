import type { RegexTrait } from "../model/rubric/index.js";
import {
  PythonRegexError,
  type PythonRegexRunOptions,
  pythonSearch,
  RegexEngineError,
  RegexTimeoutError,
} from "../python-regex/index.js";
import { TraitEvaluationError } from "./errors.js";

/**
 * Evaluates a regex trait as the original does (spec 03 §3): Python `re.search(pattern, text)`, with
 * `IGNORECASE` when `case_sensitive` is false, negated when `invert_result` is true. The search runs off the
 * host's thread under a deadline (`options.timeoutMs`, else the process default of 1000 ms).
 * @throws TraitEvaluationError "Failed to evaluate regex trait '<name>': …" when the pattern cannot run
 *   (traits parsed through `RegexTraitSchema` were already checked) or ran past its deadline on this text.
 * @example
 * const cites = parseRubricTrait({ name: "cites", pattern: String.raw`\[\d+\]` }, "regex");
 * evaluateRegexTrait(cites, "as shown in [12]"); // true
 * evaluateRegexTrait({ ...cites, invert_result: true }, "as shown in [12]"); // false
 */
export function evaluateRegexTrait(
  trait: RegexTrait,
  text: string,
  options: Pick<PythonRegexRunOptions, "timeoutMs"> = {},
): boolean {
  let matched: boolean;
  try {
    matched = pythonSearch(trait.pattern, text, {
      ignoreCase: !trait.case_sensitive,
      timeoutMs: options.timeoutMs,
    });
  } catch (error) {
    if (
      !(error instanceof PythonRegexError) &&
      !(error instanceof RegexTimeoutError) &&
      !(error instanceof RegexEngineError)
    ) {
      throw error;
    }
    throw new TraitEvaluationError(
      trait.name,
      "regex",
      "pattern",
      `Failed to evaluate regex trait '${trait.name}': ${error.message}`,
    );
  }
  return trait.invert_result ? !matched : matched;
}
