import { z } from "zod";
import { PythonRegexError, translatePythonRegex } from "../../python-regex/index.js";
import { OptionalTextSchema, TraitNameSchema } from "./trait-fields.js";

/** The fields of a regex trait, in the original's order (spec 03 §3). */
export const RegexTraitFields = z.strictObject({
  type: z.literal("regex").default("regex"),
  name: TraitNameSchema,
  description: OptionalTextSchema,
  summary: OptionalTextSchema,
  pattern: z.string(),
  case_sensitive: z.boolean().default(true),
  invert_result: z.boolean().default(false),
  higher_is_better: z.boolean().nullable().default(true),
});

/**
 * A trait evaluated locally with `re.search`. The pattern is Python `re` syntax and must translate faithfully
 * to JavaScript (see `translatePythonRegex`); otherwise parsing fails with "Invalid regex pattern: …".
 * @example
 * RegexTraitSchema.parse({ name: "has_citation", pattern: String.raw`\[\d+\]` }).case_sensitive; // true
 */
export const RegexTraitSchema = RegexTraitFields.superRefine((trait, ctx) => {
  try {
    translatePythonRegex(trait.pattern, { ignoreCase: !trait.case_sensitive });
  } catch (error) {
    if (!(error instanceof PythonRegexError)) throw error;
    ctx.addIssue({ code: "custom", path: ["pattern"], message: `Invalid regex pattern: ${error.message}` });
  }
});

export type RegexTrait = z.infer<typeof RegexTraitSchema>;
export type RegexTraitInput = z.input<typeof RegexTraitSchema>;
