import { describeValue } from "../errors/index.js";
import type { MetricName, MetricTrait } from "../model/rubric/index.js";
import { pyStrip } from "../templates/index.js";
import { TraitEvaluationError } from "./errors.js";

/** The four buckets the judge fills for a metric trait (spec 03 §5.2), in the original's key order. */
export interface ConfusionLists {
  tp: string[];
  fn: string[];
  fp: string[];
  tn: string[];
}

/** The lists recorded for a metric trait whose evaluation failed. */
export function emptyConfusionLists(): ConfusionLists {
  return { tp: [], fn: [], fp: [], tn: [] };
}

const BUCKETS = ["tp", "fn", "fp", "tn"] as const;

function dedupe(items: readonly string[]): string[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = pyStrip(item.toLowerCase());
    if (key === "" || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * The `repeated_extraction` rule (spec 03 §5.2 step 2): in each list, empty or whitespace-only items and
 * case-insensitive duplicates (compared as `item.lower().strip()`) are dropped; the first occurrence stays.
 * @example
 * dedupeConfusionLists({ tp: ["COX-1", " cox-1 ", "", "COX-2"], fn: [], fp: [], tn: [] }).tp; // ["COX-1", "COX-2"]
 */
export function dedupeConfusionLists(lists: ConfusionLists): ConfusionLists {
  return { tp: dedupe(lists.tp), fn: dedupe(lists.fn), fp: dedupe(lists.fp), tn: dedupe(lists.tn) };
}

const ratio = (numerator: number, denominator: number) => (denominator > 0 ? numerator / denominator : 0);

/** Each metric from the bucket counts; a zero denominator gives 0.0. */
const FORMULAS: Record<MetricName, (c: Record<(typeof BUCKETS)[number], number>) => number> = {
  precision: ({ tp, fp }) => ratio(tp, tp + fp),
  recall: ({ tp, fn }) => ratio(tp, tp + fn),
  specificity: ({ tn, fp }) => ratio(tn, tn + fp),
  accuracy: ({ tp, tn, fp, fn }) => ratio(tp + tn, tp + tn + fp + fn),
  f1: ({ tp, fp, fn }) => {
    if (tp + fp === 0 || tp + fn === 0) return 0;
    const precision = tp / (tp + fp);
    const recall = tp / (tp + fn);
    return ratio(2 * precision * recall, precision + recall);
  },
};

/**
 * The metrics a metric trait asks for, computed from the list lengths (spec 03 §5.2 step 3): precision
 * tp/(tp+fp), recall tp/(tp+fn), specificity tn/(tn+fp), accuracy (tp+tn)/all, f1 2PR/(P+R). Metrics the
 * trait does not list are not computed; any zero denominator gives 0.0. The lists are used as given: apply
 * {@link dedupeConfusionLists} first when the trait has `repeated_extraction`.
 * @example
 * const coverage = MetricTraitSchema.parse({ name: "coverage", metrics: ["precision", "recall"], tp_instructions: ["COX-1", "COX-2"] });
 * computeMetrics(coverage, { tp: ["COX-1"], fn: ["COX-2"], fp: [], tn: [] }); // { precision: 1, recall: 0.5 }
 */
export function computeMetrics(
  trait: Pick<MetricTrait, "metrics">,
  lists: ConfusionLists,
): Partial<Record<MetricName, number>> {
  const counts = { tp: lists.tp.length, fn: lists.fn.length, fp: lists.fp.length, tn: lists.tn.length };
  const metrics: Partial<Record<MetricName, number>> = {};
  for (const name of trait.metrics) {
    const formula = FORMULAS[name as MetricName];
    if (formula !== undefined) metrics[name as MetricName] = formula(counts);
  }
  return metrics;
}

/** A metric trait's result: the confusion lists the judge gave and the metrics computed from them. */
export interface MetricOutcome {
  lists: ConfusionLists;
  metrics: Partial<Record<MetricName, number>>;
}

/**
 * Reads a metric trait's judge reply (`{"tp": [...], "fn": [...], "fp": [...], "tn": [...]}`, a missing
 * bucket being `[]`), deduplicates it when the trait has `repeated_extraction`, and computes the metrics.
 * @throws TraitEvaluationError when the reply is not an object or a bucket is not a list of strings.
 * @example
 * const coverage = MetricTraitSchema.parse({ name: "coverage", metrics: ["recall"], tp_instructions: ["COX-1", "COX-2"] });
 * evaluateMetricReply(coverage, { tp: ["COX-1", "cox-1"], fn: ["COX-2"] });
 * // { lists: { tp: ["COX-1"], fn: ["COX-2"], fp: [], tn: [] }, metrics: { recall: 0.5 } }
 */
export function evaluateMetricReply(trait: MetricTrait, reply: unknown): MetricOutcome {
  const fail = (reason: string) => new TraitEvaluationError(trait.name, "metric", null, reason);
  if (typeof reply !== "object" || reply === null || Array.isArray(reply)) {
    throw fail(`the judge reply is ${describeValue(reply)}, not an object of tp/fn/fp/tn lists`);
  }
  const record = reply as Record<string, unknown>;
  const lists = emptyConfusionLists();
  for (const bucket of BUCKETS) {
    const items = record[bucket] ?? [];
    if (!Array.isArray(items) || !items.every((item) => typeof item === "string")) {
      throw fail(`the judge reply's "${bucket}" is ${describeValue(items)}, not a list of strings`);
    }
    lists[bucket] = [...items];
  }
  const kept = trait.repeated_extraction ? dedupeConfusionLists(lists) : lists;
  return { lists: kept, metrics: computeMetrics(trait, kept) };
}
