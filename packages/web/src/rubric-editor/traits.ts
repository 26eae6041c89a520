/**
 * The rubric editor's edits as pure functions over the library's `Rubric`: every edit spreads the existing trait
 * and replaces only what changed, so fields the editor does not show (summary, include_ground_truth, a
 * callable's code, an agentic trait's settings) survive the round trip untouched.
 */
import type {
  LlmTrait,
  MetricName,
  MetricTrait,
  RegexTrait,
  Rubric,
  RubricTrait,
  TraitType,
} from "../library-types/index.js";

/** The five lists of a rubric, in the library's order (llm, regex, callable, metric, agentic). */
export const TRAIT_LISTS = [
  "llm_traits",
  "regex_traits",
  "callable_traits",
  "metric_traits",
  "agentic_traits",
] as const;
type TraitList = (typeof TRAIT_LISTS)[number];

/** Where a trait sits in a rubric: its type and its index in that type's list. */
export interface TraitRef {
  readonly type: TraitType;
  readonly index: number;
}

/** A trait with where it sits, in the rubric's order. */
export interface PlacedTrait {
  readonly ref: TraitRef;
  readonly trait: RubricTrait;
}

const listOf = (type: TraitType): TraitList => `${type}_traits`;

/** A rubric with no trait. */
export function emptyRubric(): Rubric {
  return { llm_traits: [], regex_traits: [], callable_traits: [], metric_traits: [], agentic_traits: [] };
}

/** Every trait of a rubric with its place, in the library's order; none for null. */
export function placedTraits(rubric: Rubric | null): PlacedTrait[] {
  if (rubric === null) return [];
  return TRAIT_LISTS.flatMap((list) =>
    ((rubric[list] ?? []) as RubricTrait[]).map((trait, index) => ({
      ref: { type: trait.type, index },
      trait,
    })),
  );
}

/** A stable text key of a place (`llm:0`), for React keys and error maps. */
export const refKey = (ref: TraitRef): string => `${ref.type}:${ref.index}`;

/** The rubric, or null when it has no trait left (the editor's contract: null when the last trait goes). */
function orNull(rubric: Rubric): Rubric | null {
  return placedTraits(rubric).length === 0 ? null : rubric;
}

/** The rubric with the trait at `ref` replaced by `next` (which may be of another type: it then moves lists). */
export function replaceTrait(rubric: Rubric, ref: TraitRef, next: RubricTrait): Rubric {
  const from = listOf(ref.type);
  if (next.type === ref.type) {
    const list = [...(rubric[from] as RubricTrait[])];
    list[ref.index] = next;
    return { ...rubric, [from]: list };
  }
  const removed = (rubric[from] as RubricTrait[]).filter((_, index) => index !== ref.index);
  const to = listOf(next.type);
  return { ...rubric, [from]: removed, [to]: [...((rubric[to] ?? []) as RubricTrait[]), next] };
}

/** The rubric without the trait at `ref`; null when it was the last. */
export function removeTrait(rubric: Rubric, ref: TraitRef): Rubric | null {
  const list = listOf(ref.type);
  return orNull({ ...rubric, [list]: (rubric[list] as RubricTrait[]).filter((_, i) => i !== ref.index) });
}

/** The rubric (an empty one for null) with `trait` appended to its type's list. */
export function appendTrait(rubric: Rubric | null, trait: RubricTrait): Rubric {
  const base = rubric ?? emptyRubric();
  const list = listOf(trait.type);
  return { ...base, [list]: [...((base[list] ?? []) as RubricTrait[]), trait] };
}

/** Every field of an LLM trait at the library's defaults (spec 03 §2.1). */
export function llmDefaults(name: string, description: string | null): LlmTrait {
  return {
    type: "llm",
    name,
    description,
    summary: null,
    kind: "boolean",
    min_score: 1,
    max_score: 5,
    classes: null,
    deep_judgment_enabled: false,
    deep_judgment_excerpt_enabled: true,
    deep_judgment_max_excerpts: null,
    deep_judgment_fuzzy_match_threshold: null,
    deep_judgment_excerpt_retry_attempts: null,
    deep_judgment_search_enabled: false,
    include_ground_truth: false,
    higher_is_better: true,
  };
}

/** The first free `Trait <n>` name, starting after the rubric's trait count (spec 07 §1.4 "Add trait"). */
export function nextTraitName(rubric: Rubric | null): string {
  const taken = new Set(placedTraits(rubric).map(({ trait }) => trait.name.toLowerCase()));
  let n = placedTraits(rubric).length + 1;
  while (taken.has(`trait ${n}`)) n += 1;
  return `Trait ${n}`;
}

/** "Add trait": a binary LLM trait named `Trait <n+1>`, empty description, higher is better. */
export function newTrait(rubric: Rubric | null): LlmTrait {
  return llmDefaults(nextTraitName(rubric), "");
}

/** What a card's type select offers (spec 07 §1.4), and what a trait currently is. */
export type EditableKind = "boolean" | "score" | "literal" | "regex" | "metric";
export type CardKind = EditableKind | "template" | "callable" | "agentic";

export const KIND_LABELS: Record<EditableKind, string> = {
  boolean: "Binary",
  score: "Score",
  literal: "Literal (Categorical)",
  regex: "Regex",
  metric: "Metric (Confusion Matrix)",
};

/** What a trait is, as the card shows it. */
export function cardKind(trait: RubricTrait): CardKind {
  if (trait.type === "llm") return typeof trait.kind === "string" ? trait.kind : "template";
  return trait.type;
}

/** The classes a trait converted to literal starts with: two rows to fill in. */
const STARTING_CLASSES = { "Class 1": "", "Class 2": "" };

function toLlm(trait: RubricTrait, kind: "boolean" | "score" | "literal"): LlmTrait {
  const base: LlmTrait =
    trait.type === "llm"
      ? trait
      : {
          ...llmDefaults(trait.name, trait.description),
          summary: trait.summary,
          higher_is_better: trait.higher_is_better ?? true,
        };
  if (kind === "literal") {
    const classes = base.kind === "literal" && base.classes !== null ? base.classes : STARTING_CLASSES;
    return { ...base, kind, classes, min_score: 0, max_score: Object.keys(classes).length - 1 };
  }
  const range = base.kind === "score" ? {} : { min_score: 1, max_score: 5 };
  return { ...base, kind, classes: null, ...range };
}

function toRegex(trait: RubricTrait): RegexTrait {
  return {
    type: "regex",
    name: trait.name,
    description: trait.description,
    summary: trait.summary,
    pattern: "",
    case_sensitive: true,
    invert_result: false,
    higher_is_better: trait.higher_is_better ?? true,
  };
}

function toMetric(trait: RubricTrait): MetricTrait {
  return {
    type: "metric",
    name: trait.name,
    description: trait.description,
    summary: trait.summary,
    evaluation_mode: "tp_only",
    metrics: ["precision"],
    tp_instructions: [],
    tn_instructions: [],
    repeated_extraction: true,
    higher_is_better: null,
  };
}

/**
 * The trait converted to another kind, keeping its name, description and summary (spec 07 §1.4): new score
 * traits get 1–5, new regex traits an empty case-sensitive pattern, new metric traits `tp_only` with
 * precision. Between LLM kinds every other field (deep judgment, direction, ground truth) is kept.
 */
export function convertTrait(trait: RubricTrait, kind: EditableKind): RubricTrait {
  if (cardKind(trait) === kind) return trait;
  if (kind === "regex") return toRegex(trait);
  if (kind === "metric") return toMetric(trait);
  return toLlm(trait, kind);
}

/** The metrics each evaluation mode offers (spec 03 §5.1). */
export const MODE_METRICS: Record<MetricTrait["evaluation_mode"], readonly MetricName[]> = {
  tp_only: ["precision", "recall", "f1"],
  full_matrix: ["precision", "recall", "f1", "specificity", "accuracy"],
};

/** Switches a metric trait's mode, dropping metrics the mode lacks and falling back to precision. */
export function withEvaluationMode(trait: MetricTrait, mode: MetricTrait["evaluation_mode"]): MetricTrait {
  const offered: readonly string[] = MODE_METRICS[mode];
  const kept = trait.metrics.filter((metric) => offered.includes(metric));
  return { ...trait, evaluation_mode: mode, metrics: kept.length === 0 ? ["precision"] : kept };
}

/** A metric trait with `metric` switched on or off, in the mode's order. */
export function withMetric(trait: MetricTrait, metric: MetricName, on: boolean): MetricTrait {
  const chosen = new Set(trait.metrics);
  if (on) chosen.add(metric);
  else chosen.delete(metric);
  return { ...trait, metrics: MODE_METRICS[trait.evaluation_mode].filter((name) => chosen.has(name)) };
}

/** The names of traits whose name another trait of the rubric also has (case-insensitive, spec 07 §1.4). */
export function duplicateNames(rubric: Rubric | null): Set<string> {
  const counts = new Map<string, number>();
  for (const { trait } of placedTraits(rubric)) {
    const folded = trait.name.trim().toLowerCase();
    counts.set(folded, (counts.get(folded) ?? 0) + 1);
  }
  return new Set([...counts].filter(([, count]) => count > 1).map(([name]) => name));
}
