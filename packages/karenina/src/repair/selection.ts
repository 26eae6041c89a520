/**
 * Which rows `karenina repair` re-runs (spec 06 §5.4): filters on the row's identity (question, answering and
 * parsing model keys, replicate) and on its failure (group, category, stage); AND across kinds, OR within one.
 */
import { z } from "zod";
import {
  canonicalKey,
  FAILURE_CATEGORIES,
  FAILURE_GROUPS,
  type VerificationResult,
} from "../results/index.js";
import { RepairError } from "./errors.js";

/** The filters of a repair; an empty list does not filter. `all` selects every row. */
export const RepairFiltersSchema = z.object({
  questionIds: z.array(z.string()).default([]),
  /** Answering model canonical keys (`interface:model[:config_id]:tools`, e.g. `openai_endpoint:answerer:`). */
  answererKeys: z.array(z.string()).default([]),
  parserKeys: z.array(z.string()).default([]),
  /** Replicate numbers; `null` matches rows of runs without replicates. */
  replicates: z.array(z.int().min(1).nullable()).default([]),
  failureGroups: z.array(z.enum(FAILURE_GROUPS)).default([]),
  failureCategories: z.array(z.enum(FAILURE_CATEGORIES)).default([]),
  failureStages: z.array(z.string()).default([]),
  all: z.boolean().default(false),
});
export type RepairFilters = z.output<typeof RepairFiltersSchema>;
export type RepairFiltersInput = z.input<typeof RepairFiltersSchema>;

/** Whether the filters select anything at all (at least one filter, or `all`). */
export function hasSelection(filters: RepairFilters): boolean {
  return (
    filters.all ||
    filters.questionIds.length +
      filters.answererKeys.length +
      filters.parserKeys.length +
      filters.replicates.length +
      filters.failureGroups.length +
      filters.failureCategories.length +
      filters.failureStages.length >
      0
  );
}

/**
 * The identity of a row in a repair: `qid|ansKey|parseKey|replicate-or-none|run_name` (the run name `None`
 * when there is none, as the original writes it), e.g. `q1|openai_endpoint:m:|openai_endpoint:j:|none|run_1a2b3c4d`.
 */
export function repairKey(row: VerificationResult): string {
  const { metadata } = row;
  return [
    metadata.question_id,
    canonicalKey(metadata.answering),
    canonicalKey(metadata.parsing),
    metadata.replicate === null ? "none" : String(metadata.replicate),
    metadata.run_name ?? "None",
  ].join("|");
}

const within = <T>(wanted: readonly T[], value: T) => wanted.length === 0 || wanted.includes(value);

function matches(row: VerificationResult, filters: RepairFilters): boolean {
  if (filters.all) return true;
  const { metadata } = row;
  const failure = metadata.failure;
  const failureFiltered =
    filters.failureGroups.length + filters.failureCategories.length + filters.failureStages.length > 0;
  if (failureFiltered && failure === null) return false;
  return (
    within(filters.questionIds, metadata.question_id) &&
    within(filters.answererKeys, canonicalKey(metadata.answering)) &&
    within(filters.parserKeys, canonicalKey(metadata.parsing)) &&
    within(filters.replicates, metadata.replicate) &&
    (failure === null ||
      (within(filters.failureGroups, failure.group) &&
        within(filters.failureCategories, failure.category) &&
        within(filters.failureStages, failure.stage)))
  );
}

/**
 * The indexes of the rows the filters select, in file order.
 * @throws {RepairError} when two rows share an identity (the splice could not tell them apart) or nothing matches.
 */
export function selectRepairRows(rows: readonly VerificationResult[], filters: RepairFilters): number[] {
  const seen = new Map<string, number>();
  rows.forEach((row, index) => {
    const key = repairKey(row);
    const first = seen.get(key);
    if (first !== undefined)
      throw new RepairError(
        `rows ${first} and ${index} are the same result (${key}): a repair needs one row per question, answering model, parsing model, replicate and run; remove the duplicate first`,
      );
    seen.set(key, index);
  });
  const selected = rows.flatMap((row, index) => (matches(row, filters) ? [index] : []));
  if (selected.length === 0)
    throw new RepairError(
      `no row of the ${rows.length} matches the filters; check the question ids and model keys (karenina results shows them) or use --all`,
    );
  return selected;
}
