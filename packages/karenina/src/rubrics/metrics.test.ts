import { describe, expect, test } from "vitest";
import { MetricTraitSchema } from "../model/rubric/index.js";
import { thrown } from "../test-support/thrown.js";
import { TraitEvaluationError } from "./errors.js";
import { computeMetrics, dedupeConfusionLists, evaluateMetricReply } from "./metrics.js";

const lists = (tp: string[], fn: string[] = [], fp: string[] = [], tn: string[] = []) => ({ tp, fn, fp, tn });

describe("dedupeConfusionLists (repeated_extraction)", () => {
  test("drops blank items and case-insensitive duplicates, keeping the first spelling", () => {
    expect(dedupeConfusionLists(lists(["COX-1", "cox-1", "  COX-1 ", " ", "", "COX-2"], ["a", "A"]))).toEqual(
      lists(["COX-1", "COX-2"], ["a"]),
    );
  });

  test("compares with Python's strip(): U+0085 is whitespace, U+FEFF is not", () => {
    expect(dedupeConfusionLists(lists(["x", "x\u0085", "\u0085", "\ufeffx"])).tp).toEqual(["x", "\ufeffx"]);
  });
});

describe("computeMetrics", () => {
  const full = MetricTraitSchema.parse({
    name: "m",
    evaluation_mode: "full_matrix",
    metrics: ["precision", "recall", "f1", "specificity", "accuracy"],
    tp_instructions: ["a"],
    tn_instructions: ["b"],
  });

  test("computes each formula from the list lengths", () => {
    // tp 2, fn 1, fp 1, tn 3 → P 2/3, R 2/3, F1 2/3, specificity 3/4, accuracy 5/7
    const metrics = computeMetrics(full, lists(["a", "b"], ["c"], ["d"], ["e", "f", "g"]));
    expect(metrics).toEqual({
      precision: 2 / 3,
      recall: 2 / 3,
      f1: (2 * (2 / 3) * (2 / 3)) / (4 / 3),
      specificity: 3 / 4,
      accuracy: 5 / 7,
    });
  });

  test("a zero denominator gives 0.0 for every metric", () => {
    expect(computeMetrics(full, lists([]))).toEqual({
      precision: 0,
      recall: 0,
      f1: 0,
      specificity: 0,
      accuracy: 0,
    });
    expect(computeMetrics(full, lists([], ["c"], ["d"]))).toMatchObject({ precision: 0, recall: 0, f1: 0 });
  });

  test("only the metrics the trait asks for are computed", () => {
    const recallOnly = MetricTraitSchema.parse({ name: "m", metrics: ["recall"], tp_instructions: ["a"] });
    expect(computeMetrics(recallOnly, lists(["a"], ["b", "c", "d"]))).toEqual({ recall: 0.25 });
  });
});

describe("evaluateMetricReply", () => {
  // The judge replies below are hand-written for these tests.
  const coverage = MetricTraitSchema.parse({
    name: "coverage",
    metrics: ["precision", "recall"],
    tp_instructions: ["COX-1", "COX-2"],
  });

  test("reads the four lists (missing ones empty), deduplicates, computes: the spec 03 §11 example", () => {
    expect(evaluateMetricReply(coverage, { tp: ["COX-1", "cox-1"], fn: ["COX-2"] })).toEqual({
      lists: { tp: ["COX-1"], fn: ["COX-2"], fp: [], tn: [] },
      metrics: { precision: 1, recall: 0.5 },
    });
  });

  test("without repeated_extraction the lists are counted as given", () => {
    const raw = MetricTraitSchema.parse({ ...coverage, repeated_extraction: false });
    expect(evaluateMetricReply(raw, { tp: ["COX-1", "cox-1"], fn: ["COX-2"] }).metrics).toEqual({
      precision: 1,
      recall: 2 / 3,
    });
  });

  test("a reply of the wrong shape is a TraitEvaluationError naming the trait and the bucket", () => {
    const error = thrown(TraitEvaluationError, () => evaluateMetricReply(coverage, { tp: "COX-1" }));
    expect(error.message).toBe(
      'metric trait "coverage": the judge reply\'s "tp" is a string "COX-1", not a list of strings',
    );
    expect(thrown(TraitEvaluationError, () => evaluateMetricReply(coverage, [])).message).toContain(
      "not an object",
    );
  });
});
