import { isGlobalTraitRating, traitToRating } from "../checkpoint/index.js";
import {
  type MergedRubric,
  mergeRubrics,
  parseRubric,
  parseRubricTrait,
  type Rubric,
  type RubricInput,
  type RubricTrait,
  type RubricTraitInput,
  rubricFromTraits,
  rubricTraits,
  validateRubricForReadiness,
} from "../model/index.js";
import { IN_MEMORY } from "./benchmark-core.js";
import { BenchmarkTemplates } from "./benchmark-templates.js";
import type { RubricProblem } from "./readiness.js";

/** Traits given as a rubric or a list, validated; null gives none. */
function traitsOf(rubric: RubricInput | readonly RubricTraitInput[] | null): RubricTrait[] {
  if (rubric === null) return [];
  const traits = Array.isArray(rubric)
    ? rubric.map((trait) => parseRubricTrait(trait))
    : rubricTraits(parseRubric(rubric));
  rubricFromTraits(traits);
  return traits;
}

/** The global and question-specific rubrics of a benchmark (spec 01 §4.9). */
export abstract class BenchmarkRubrics extends BenchmarkTemplates {
  /** The benchmark-level rubric, or null when there are no global traits. */
  getGlobalRubric(): Rubric | null {
    this.globalRubricCache ??= this.readGlobalRubric(IN_MEMORY);
    return this.globalRubricCache;
  }

  /** Replaces the global rubric (dynamic-rubric ratings are kept, unlike the original). */
  setGlobalRubric(rubric: RubricInput | readonly RubricTraitInput[] | null): void {
    const traits = traitsOf(rubric);
    const kept = (this.doc.rating ?? []).filter((rating) => !isGlobalTraitRating(rating));
    const ratings = [...traits.map((trait) => traitToRating(trait, "global")), ...kept];
    this.doc.rating = ratings.length > 0 ? ratings : undefined;
    this.globalRubricCache = undefined;
    this.touch();
  }

  /** Appends a global trait; the traits already there are kept as they are in the file. */
  addGlobalRubricTrait(trait: RubricTraitInput): void {
    const parsed = parseRubricTrait(trait);
    rubricFromTraits([...rubricTraits(this.getGlobalRubric()), parsed]);
    this.doc.rating = [...(this.doc.rating ?? []), traitToRating(parsed, "global")];
    this.globalRubricCache = undefined;
    this.touch();
  }

  /** Removes every global trait; true when there was one. */
  clearGlobalRubric(): boolean {
    const had = (this.doc.rating?.length ?? 0) > 0;
    this.doc.rating = undefined;
    this.globalRubricCache = undefined;
    if (had) this.touch();
    return had;
  }

  getQuestionRubric(id: string): Rubric | null {
    return this.entry(id).record.question_rubric;
  }

  /** Appends a question-specific trait (name clashes surface when the rubric is built, as in the original). */
  addQuestionRubricTrait(id: string, trait: RubricTraitInput): void {
    const entry = this.entry(id);
    const q = entry.element.item;
    q.rating = [...(q.rating ?? []), traitToRating(parseRubricTrait(trait), "question")];
    this.touchQuestion(entry);
    this.refresh(id, entry);
  }

  /** Replaces a question's traits (null or an empty list removes them). */
  setQuestionRubric(id: string, rubric: RubricInput | readonly RubricTraitInput[] | null): void {
    const entry = this.entry(id);
    const traits = traitsOf(rubric);
    entry.element.item.rating =
      traits.length > 0 ? traits.map((trait) => traitToRating(trait, "question")) : undefined;
    this.touchQuestion(entry);
    this.refresh(id, entry);
  }

  removeQuestionRubric(id: string): boolean {
    const entry = this.entry(id);
    const had = (entry.element.item.rating?.length ?? 0) > 0;
    if (had) this.setQuestionRubric(id, null);
    return had;
  }

  /** Removes all rubrics; returns 1 for the global one (if any) plus 1 per question that had traits. */
  clearAllRubrics(): number {
    let count = this.clearGlobalRubric() ? 1 : 0;
    for (const id of this.entries.keys()) if (this.removeQuestionRubric(id)) count++;
    return count;
  }

  /**
   * The rubric that applies to a question: global traits plus its own. A question trait with a global trait's
   * name replaces it for this question (seed 004), and the merge says so in `warnings`.
   */
  getMergedRubricForQuestion(id: string): MergedRubric {
    return mergeRubrics(this.getGlobalRubric(), this.getQuestionRubric(id));
  }

  /** Rubric traits missing what they need (spec 01 §4.9). */
  validateRubrics(): RubricProblem[] {
    const problems: RubricProblem[] = validateRubricForReadiness(this.getGlobalRubric(), "global");
    for (const [id, entry] of this.entries) {
      problems.push(...validateRubricForReadiness(entry.record.question_rubric, `question:${id}`));
    }
    return problems;
  }
}
