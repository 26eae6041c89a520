import { z } from "zod";
import {
  ClassesSchema,
  classesProblem,
  isTemplateKind,
  LITERAL_WITHOUT_CLASSES,
  OptionalTextSchema,
  TraitKindSchema,
  TraitNameSchema,
  withJudgedDefaults,
} from "./trait-fields.js";

/** The fields of an LLM-judged trait, in the original's order (spec 03 §2.1). */
export const LlmTraitFields = z.strictObject({
  type: z.literal("llm").default("llm"),
  name: TraitNameSchema,
  description: OptionalTextSchema,
  summary: OptionalTextSchema,
  kind: TraitKindSchema,
  min_score: z.int().nullable().default(1),
  max_score: z.int().nullable().default(5),
  classes: ClassesSchema,
  deep_judgment_enabled: z.boolean().default(false),
  deep_judgment_excerpt_enabled: z.boolean().default(true),
  deep_judgment_max_excerpts: z.int().nullable().default(null),
  deep_judgment_fuzzy_match_threshold: z.number().nullable().default(null),
  deep_judgment_excerpt_retry_attempts: z.int().nullable().default(null),
  deep_judgment_search_enabled: z.boolean().default(false),
  include_ground_truth: z.boolean().default(false),
  // Optional here so the checks can tell "omitted" from "given"; the transform supplies the default.
  higher_is_better: z.boolean().nullable().optional(),
});

/**
 * An LLM-judged rubric trait (boolean, score, literal or template kind) with the validation of spec 03 §2.2.
 * Literal traits get `min_score` 0 and `max_score` n−1 whatever was given. Template-kind traits refuse an
 * explicit non-null `higher_is_better` and deep judgment; an omitted `higher_is_better` becomes `true` for
 * every kind (the original's quirk, kept for checkpoint parity).
 * @example
 * const tone = LlmTraitSchema.parse({ name: "tone", kind: "literal", classes: { formal: "F", casual: "C" } });
 * tone.max_score; // 1
 */
export const LlmTraitSchema = LlmTraitFields.superRefine((trait, ctx) => {
  if (trait.classes !== null) {
    const problem = classesProblem(trait.classes);
    if (problem !== null) ctx.addIssue({ code: "custom", path: ["classes"], message: problem });
  } else if (trait.kind === "literal") {
    ctx.addIssue({ code: "custom", path: ["classes"], message: LITERAL_WITHOUT_CLASSES });
  }
  if (!isTemplateKind(trait.kind)) return;
  if (trait.higher_is_better !== undefined && trait.higher_is_better !== null) {
    ctx.addIssue({
      code: "custom",
      path: ["higher_is_better"],
      message: "must be null for template-kind traits (directionality does not apply)",
    });
  }
  if (trait.deep_judgment_enabled) {
    ctx.addIssue({
      code: "custom",
      path: ["deep_judgment_enabled"],
      message: "deep judgment is not supported for template-kind traits",
    });
  }
}).transform(withJudgedDefaults);

export type LlmTrait = z.infer<typeof LlmTraitSchema>;
export type LlmTraitInput = z.input<typeof LlmTraitSchema>;
