import { z } from "zod";
import type { Rubric, TraitProvenance } from "../model/rubric/index.js";
import { setOwn } from "../plain-data/index.js";
import type { ConfusionLists } from "./metrics.js";

const ConfusionListsSchema = z.object({
  tp: z.array(z.string()),
  fn: z.array(z.string()),
  fp: z.array(z.string()),
  tn: z.array(z.string()),
});

/** Provenance of an agentic trait's extracted value (spec 03 §9.5). */
export const AgenticExtractionMetadataSchema = z.object({
  method: z.enum(["local_json", "parser_after_local_json_failed", "failed"]),
  local_json_error: z.string().nullable(),
  parser_error: z.string().nullable(),
});
export type AgenticExtractionMetadata = z.infer<typeof AgenticExtractionMetadataSchema>;

const nullableRecord = <T extends z.ZodType>(value: T) =>
  z.record(z.string(), value).nullable().default(null);

/**
 * The rubric part of a verification result (spec 03 §11), keys as in the original. Every map is null when
 * empty; failed regex/callable/LLM traits have no key (their null value is dropped), failed agentic traits
 * keep a null.
 * @example
 * VerificationResultRubricSchema.parse({ rubric_evaluation_performed: true }).llm_trait_scores; // null
 */
export const VerificationResultRubricSchema = z.object({
  rubric_evaluation_performed: z.boolean().default(false),
  rubric_evaluation_strategy: z.enum(["batch", "sequential"]).nullable().default(null),
  /** boolean → bool, score → int, literal → class index (−1 = invalid), template → `trait.field` values. */
  llm_trait_scores: nullableRecord(z.unknown()),
  /** Literal traits only. */
  llm_trait_labels: nullableRecord(z.string()),
  regex_trait_scores: nullableRecord(z.boolean()),
  /** Literal callables give their class index. */
  callable_trait_scores: nullableRecord(z.union([z.boolean(), z.number()])),
  metric_trait_scores: nullableRecord(z.record(z.string(), z.number())),
  metric_trait_confusion_lists: nullableRecord(ConfusionListsSchema),
  agentic_trait_scores: nullableRecord(z.unknown()),
  agentic_trait_investigation_traces: nullableRecord(z.string()),
  agentic_trait_extraction_metadata: nullableRecord(AgenticExtractionMetadataSchema),
  dynamic_rubric_skipped_traits: nullableRecord(z.string()),
  dynamic_rubric_promoted_traits: z.array(z.string()).nullable().default(null),
  trait_provenance: nullableRecord(z.enum(["global", "question_specific", "dynamic"])),
});
export type VerificationResultRubric = z.infer<typeof VerificationResultRubricSchema>;

/** What the rubric and agentic stages hand over to build the result block. */
export interface RubricResultInput {
  /** The rubric that was evaluated (dynamic traits promoted into it). */
  readonly rubric: Rubric;
  /**
   * The stage's flat name → value map (`verify_rubric`): regex, callable and LLM traits, template-kind traits
   * as `trait.field` keys. Null when the stage produced none (e.g. a failed batch call).
   */
  readonly scores: Readonly<Record<string, unknown>> | null;
  readonly strategy?: "batch" | "sequential" | null;
  readonly labels?: Readonly<Record<string, string>>;
  readonly metricScores?: Readonly<Record<string, Record<string, number>>>;
  readonly confusionLists?: Readonly<Record<string, ConfusionLists>>;
  readonly agenticScores?: Readonly<Record<string, unknown>>;
  readonly agenticTraces?: Readonly<Record<string, string | null>>;
  readonly agenticExtractionMetadata?: Readonly<Record<string, AgenticExtractionMetadata>>;
  readonly dynamicSkipped?: Readonly<Record<string, string>>;
  readonly dynamicPromoted?: readonly string[];
  readonly provenance?: Readonly<Record<string, TraitProvenance>>;
}

const orNull = <T extends object>(value: T | undefined): T | null =>
  value === undefined || Object.keys(value).length === 0 ? null : value;

/**
 * Routes the stage outputs into the result block (spec 03 §9.6): each key of `scores` goes by its base name
 * (the part before the first `.`) to `llm_trait_scores`, `regex_trait_scores` or `callable_trait_scores`;
 * null values are dropped; agentic scores keep nulls, agentic traces drop them; an empty map becomes null.
 * @example
 * const rubric = parseRubric({ llm_traits: [{ name: "clarity", kind: "score" }], regex_traits: [{ name: "cites", pattern: "x" }] });
 * const block = buildRubricResult({ rubric, scores: { clarity: 4, cites: null }, strategy: "batch" });
 * block.llm_trait_scores; // { clarity: 4 }
 * block.regex_trait_scores; // null
 */
export function buildRubricResult(input: RubricResultInput): VerificationResultRubric {
  const owner = new Map<string, "llm" | "regex" | "callable">();
  for (const trait of input.rubric.llm_traits) owner.set(trait.name, "llm");
  for (const trait of input.rubric.regex_traits) owner.set(trait.name, "regex");
  for (const trait of input.rubric.callable_traits) owner.set(trait.name, "callable");
  const routed = {
    llm: {} as Record<string, unknown>,
    regex: {} as Record<string, boolean>,
    callable: {} as Record<string, boolean | number>,
  };
  for (const [key, value] of Object.entries(input.scores ?? {})) {
    const type = owner.get(key.split(".", 1)[0] as string);
    if (type === undefined || value === null || value === undefined) continue;
    setOwn(routed[type] as Record<string, unknown>, key, value);
  }
  const traces = Object.entries(input.agenticTraces ?? {}).filter(
    (entry): entry is [string, string] => entry[1] !== null,
  );
  return VerificationResultRubricSchema.parse({
    rubric_evaluation_performed: input.scores !== null,
    rubric_evaluation_strategy: input.strategy ?? null,
    llm_trait_scores: orNull(routed.llm),
    llm_trait_labels: orNull(input.labels),
    regex_trait_scores: orNull(routed.regex),
    callable_trait_scores: orNull(routed.callable),
    metric_trait_scores: orNull(input.metricScores),
    metric_trait_confusion_lists: orNull(input.confusionLists),
    agentic_trait_scores: orNull(input.agenticScores),
    agentic_trait_investigation_traces: orNull(Object.fromEntries(traces)),
    agentic_trait_extraction_metadata: orNull(input.agenticExtractionMetadata),
    dynamic_rubric_skipped_traits: orNull(input.dynamicSkipped),
    dynamic_rubric_promoted_traits: input.dynamicPromoted?.length ? [...input.dynamicPromoted] : null,
    trait_provenance: orNull(input.provenance),
  });
}

/**
 * Every trait's score in one map, merged in the order llm, regex, callable, metric, agentic (a later map
 * overwrites an earlier key), as the original's `get_all_trait_scores()`.
 * @example
 * getAllTraitScores(VerificationResultRubricSchema.parse({ llm_trait_scores: { clarity: 4 }, regex_trait_scores: { cites: true } }));
 * // { clarity: 4, cites: true }
 */
export function getAllTraitScores(result: VerificationResultRubric): Record<string, unknown> {
  return {
    ...result.llm_trait_scores,
    ...result.regex_trait_scores,
    ...result.callable_trait_scores,
    ...result.metric_trait_scores,
    ...result.agentic_trait_scores,
  };
}
