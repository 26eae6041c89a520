import { type Rubric, rubricTraits, traitListKey } from "./rubric.js";
import { type RubricTrait, TRAIT_TYPES } from "./rubric-trait.js";

/** Where a trait of a merged rubric came from; `dynamic` marks promoted dynamic-rubric traits. */
export type TraitProvenance = "global" | "question_specific" | "dynamic";

export interface MergedRubric {
  rubric: Rubric | null;
  /** Trait name → origin, for every trait of the merged rubric. */
  provenance: Record<string, TraitProvenance>;
  /** One message per global trait replaced by a question-specific trait of the same name. */
  warnings: string[];
}

/**
 * Merges the global rubric with a question's rubric: each list is global traits then question traits.
 * OUR DECISION (seed 004, spec 03 §7): a question-specific trait replaces the global trait of the same name
 * (same or different type) for this question, with a warning naming it. The original raises instead.
 * When either side is null, the other is used as is.
 * @example
 * const globalRubric = parseRubric({ llm_traits: [{ name: "clarity", kind: "score" }] });
 * const questionRubric = parseRubric({ regex_traits: [{ name: "clarity", pattern: "\\[\\d+\\]" }] });
 * const { rubric, warnings } = mergeRubrics(globalRubric, questionRubric);
 * rubric?.llm_traits.length; // 0
 * warnings; // ['question-specific regex trait "clarity" replaces the global llm trait of the same name']
 */
export function mergeRubrics(global: Rubric | null, question: Rubric | null): MergedRubric {
  const provenance: Record<string, TraitProvenance> = {};
  const warnings: string[] = [];
  const questionTraits = new Map<string, RubricTrait>(
    question === null ? [] : rubricTraits(question).map((trait) => [trait.name, trait]),
  );
  const kept = (global === null ? [] : rubricTraits(global)).filter((trait) => {
    const replacement = questionTraits.get(trait.name);
    if (replacement === undefined) return true;
    warnings.push(
      `question-specific ${replacement.type} trait "${trait.name}" replaces the global ${trait.type} trait of the same name`,
    );
    return false;
  });
  for (const trait of kept) provenance[trait.name] = "global";
  for (const name of questionTraits.keys()) provenance[name] = "question_specific";
  if (global === null || question === null) return { rubric: global ?? question, provenance, warnings };
  const rubric = Object.fromEntries(
    TRAIT_TYPES.map((type) => [
      traitListKey(type),
      [...kept, ...questionTraits.values()].filter((trait) => trait.type === type),
    ]),
  ) as Rubric;
  return { rubric, provenance, warnings };
}
