import type { Rubric } from "../model/rubric/index.js";
import { withNonBlockingRegexes } from "../python-regex/index.js";
import { type CallableEvaluationOptions, evaluateCallableTrait } from "./callable-evaluation.js";
import type { CallableValue } from "./callable-output.js";
import { TraitEvaluationError } from "./errors.js";
import { evaluateRegexTrait } from "./regex-evaluation.js";

/** The results of a rubric's regex and callable traits. */
export interface LocalTraitResults {
  /** Trait name → value (regex traits first, then callable traits, in list order); null when it failed. */
  scores: Record<string, CallableValue | null>;
  /** Trait name → why it has no value. */
  errors: Record<string, string>;
}

/**
 * Evaluates the traits of a rubric that need no LLM (spec 03 §9.3 steps 1–2): regex traits, then callable
 * traits, in list order, on the rubric evaluation text. A trait that fails gets null and an error message;
 * the others carry on. Metric traits need a judge's confusion lists, so they are not evaluated here.
 * @example
 * const rubric = parseRubric({ regex_traits: [{ name: "cites", pattern: String.raw`\[\d+\]` }] });
 * await evaluateLocalTraits(rubric, "BCL2 inhibits apoptosis [1]."); // { scores: { cites: true }, errors: {} }
 */
export async function evaluateLocalTraits(
  rubric: Rubric,
  text: string,
  options: CallableEvaluationOptions = {},
): Promise<LocalTraitResults> {
  const results: LocalTraitResults = { scores: {}, errors: {} };
  for (const trait of rubric.regex_traits) {
    try {
      // awaited off the thread: a server keeps serving while a checkpoint's pattern runs to its deadline
      results.scores[trait.name] = await withNonBlockingRegexes(() => evaluateRegexTrait(trait, text));
    } catch (error) {
      if (!(error instanceof TraitEvaluationError)) throw error;
      results.scores[trait.name] = null;
      results.errors[trait.name] = error.message;
    }
  }
  for (const trait of rubric.callable_traits) {
    const outcome = await evaluateCallableTrait(trait, text, options);
    results.scores[trait.name] = outcome.value;
    if (outcome.error !== null) results.errors[trait.name] = outcome.error;
  }
  return results;
}
