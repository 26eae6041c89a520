import { z } from "zod";
import { OptionalTextSchema, TraitNameSchema } from "./trait-fields.js";

export const METRIC_NAMES = ["precision", "recall", "f1", "specificity", "accuracy"] as const;
export type MetricName = (typeof METRIC_NAMES)[number];

/** Metrics that need true negatives, so only exist in `full_matrix` mode. */
const FULL_MATRIX_ONLY: readonly string[] = ["specificity", "accuracy"];

/** The fields of a confusion-matrix metric trait, in the original's order (spec 03 §5.1). */
export const MetricTraitFields = z.strictObject({
  type: z.literal("metric").default("metric"),
  name: TraitNameSchema,
  description: OptionalTextSchema,
  summary: OptionalTextSchema,
  evaluation_mode: z.enum(["tp_only", "full_matrix"]).default("tp_only"),
  metrics: z.array(z.string()),
  tp_instructions: z.array(z.string()).default([]),
  tn_instructions: z.array(z.string()).default([]),
  repeated_extraction: z.boolean().default(true),
  higher_is_better: z.boolean().nullable().default(null),
});

/** The first rule of spec 03 §5.1 that a metric trait breaks, as `[field, message]`, or null. */
function metricProblem(trait: z.infer<typeof MetricTraitFields>): [string, string] | null {
  if (trait.metrics.length === 0) return ["metrics", "At least one metric must be specified"];
  const unknown = trait.metrics.filter((metric) => !(METRIC_NAMES as readonly string[]).includes(metric));
  if (unknown.length > 0) {
    return [
      "metrics",
      `Invalid metric names: ${unknown.join(", ")}. Valid metrics: ${METRIC_NAMES.join(", ")}`,
    ];
  }
  if (trait.tp_instructions.length === 0) {
    return ["tp_instructions", "TP instructions must be provided (what the response should contain)"];
  }
  if (trait.evaluation_mode === "full_matrix" && trait.tn_instructions.length === 0) {
    return ["tn_instructions", "TN instructions must be provided when evaluation_mode='full_matrix'"];
  }
  const needNegatives = trait.metrics.filter((metric) => FULL_MATRIX_ONLY.includes(metric));
  if (trait.evaluation_mode === "tp_only" && needNegatives.length > 0) {
    return [
      "metrics",
      `Metrics ${needNegatives.join(", ")} are not available in tp_only mode (they need true negatives); use evaluation_mode='full_matrix'`,
    ];
  }
  return null;
}

/**
 * A trait scored by confusion-matrix metrics over what the judge finds in the response.
 * @example
 * MetricTraitSchema.parse({ name: "coverage", metrics: ["recall"], tp_instructions: ["COX-1"] }).evaluation_mode; // "tp_only"
 */
export const MetricTraitSchema = MetricTraitFields.superRefine((trait, ctx) => {
  const problem = metricProblem(trait);
  if (problem !== null) ctx.addIssue({ code: "custom", path: [problem[0]], message: problem[1] });
});

export type MetricTrait = z.infer<typeof MetricTraitSchema>;
export type MetricTraitInput = z.input<typeof MetricTraitSchema>;
