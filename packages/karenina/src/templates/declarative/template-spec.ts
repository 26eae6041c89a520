import { z } from "zod";

/** A node of a composition strategy in the TemplateSpec form (spec 02 §9.1): leaves name a `field_name`. */
export interface VerifyStrategySpec {
  type: "all_of" | "any_of" | "at_least_n" | "field_check";
  n: number | null;
  field_name: string | null;
  conditions: VerifyStrategySpec[];
}

/** The builder's strategy node; `n` is for `at_least_n`, `field_name` for `field_check`. */
export const VerifyStrategySpecSchema: z.ZodType<VerifyStrategySpec, unknown> = z
  .lazy(() =>
    z.strictObject({
      type: z.enum(["all_of", "any_of", "at_least_n", "field_check"]),
      n: z.int().nullable().default(null),
      field_name: z.string().nullable().default(null),
      conditions: z.array(VerifyStrategySpecSchema).default([]),
    }),
  )
  .meta({ id: "VerifyStrategySpec" });

/** One field of a TemplateSpec (spec 02 §9.1), keys as in the original's JSON. */
export const TemplateFieldSpecSchema = z.strictObject({
  name: z.string(),
  /** One of `bool, str, int, float, list_str, literal, date`; checked by `validateSpec`, not here. */
  type: z.string(),
  description: z.string(),
  extraction_hint: z.string().nullable().default(null),
  /** Required (null allowed): any JSON value, or a serialized ConditionalGroundTruth. */
  ground_truth: z.unknown(),
  literal_values: z.array(z.string()).nullable().default(null),
  /** The serialized primitive, with its `"type"` (spec 02 §4). */
  verify_with: z.record(z.string(), z.unknown()),
  weight: z.number().default(1),
  is_trace: z.boolean().default(false),
});

export type TemplateFieldSpec = z.output<typeof TemplateFieldSpecSchema>;
export type TemplateFieldSpecInput = z.input<typeof TemplateFieldSpecSchema>;

/**
 * The visual builder's description of a VerifiedField template (spec 02 §9.1).
 * @example
 * const spec = TemplateSpecSchema.parse({ fields: [{ name: "target", type: "str", description: "Target", ground_truth: "BCL2", verify_with: { type: "ExactMatch" } }] });
 * spec.class_name; // "Answer"
 * spec.fields[0].weight; // 1
 */
export const TemplateSpecSchema = z.strictObject({
  fields: z.array(TemplateFieldSpecSchema),
  verify_strategy: VerifyStrategySpecSchema.nullable().default(null),
  class_name: z.string().default("Answer"),
});

export type TemplateSpec = z.output<typeof TemplateSpecSchema>;
export type TemplateSpecInput = z.input<typeof TemplateSpecSchema>;
