import { z } from "zod";
import type { Rubric } from "../../model/index.js";

/**
 * Which stored row a judgment is about (spec 06 §1.8, 08 §10.2): question, answering and parsing canonical keys,
 * replicate and run name. The scenario position (null outside scenario runs) tells turns of one question apart
 * (08 Q38, a Fix).
 */
export const ResultRowKeySchema = z.object({
  question_id: z.string(),
  answering_key: z.string(),
  parsing_key: z.string(),
  replicate: z.int().nullable(),
  run_name: z.string().nullable(),
  scenario_id: z.string().nullable().default(null),
  scenario_node: z.string().nullable().default(null),
  scenario_turn: z.int().nullable().default(null),
});
export type ResultRowKey = z.output<typeof ResultRowKeySchema>;
export type ResultRowKeyInput = z.input<typeof ResultRowKeySchema>;

/** What the judge may know besides the text: the question, and a ground truth for traits that opt in to see it. */
export const RowContextSchema = z.object({
  question: z.string().default(""),
  ground_truth: z.string().nullable().default(null),
});
export type RowContext = z.output<typeof RowContextSchema>;
export type RowContextInput = z.input<typeof RowContextSchema>;

/** A trait score as rubric evaluation records it: a verdict, a score, a class index, or metric values. */
const TraitScoreSchema = z.union([z.boolean(), z.number(), z.record(z.string(), z.number()), z.null()]);

/**
 * The verdict of a rubric on one text (spec 08 §10.2 step 5). `sibling_keys` are every row sharing the judged
 * answer (in input order; the key alone without collapsing); `error` is null unless the judging failed, and
 * then `scores` and `labels` are empty.
 */
export const PostHocJudgmentSchema = z.object({
  key: ResultRowKeySchema,
  sibling_keys: z.array(ResultRowKeySchema),
  /** Trait name → score, merged over the evaluation's rows as `getAllTraitScores` merges one row's maps. */
  scores: z.record(z.string(), TraitScoreSchema),
  /** Literal LLM trait name → its class label. */
  labels: z.record(z.string(), z.string()),
  error: z.string().nullable(),
  /** The judged row's `result_id` (null for texts). */
  representative_result_id: z.string().nullable(),
  /** The `result_id` of every row of `sibling_keys`, in the same order. */
  sibling_result_ids: z.array(z.string()),
});
export type PostHocJudgment = z.output<typeof PostHocJudgmentSchema>;

/** One text to judge: its key, the text, its context, the rubric, and the rows it stands for. */
export interface PostHocItem {
  key: ResultRowKey;
  text: string;
  context: RowContext;
  rubric: Rubric;
  siblingKeys: ResultRowKey[];
  representativeResultId: string | null;
  siblingResultIds: string[];
  /** Why the text, context or rubric could not be selected; the judgment then carries it as its error. */
  preparationError?: string;
}
