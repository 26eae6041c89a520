import { z } from "zod";
import {
  ClassesSchema,
  classesProblem,
  LITERAL_WITHOUT_CLASSES,
  literalRange,
  OptionalTextSchema,
  ScalarKindSchema,
  TraitNameSchema,
} from "./trait-fields.js";

const BASE64_ALPHABET = /^[A-Za-z0-9+/]$/;

/**
 * Whether Python's lenient `base64.b64decode` accepts the text: characters outside the alphabet are skipped,
 * and decoding stops at complete padding; a dangling partial quad is an error.
 */
export function isDecodableBase64(text: string): boolean {
  let quad = 0;
  let pads = 0;
  for (const char of text) {
    if (char === "=") {
      if (quad >= 2 && quad + ++pads >= 4) return true;
      continue;
    }
    if (!BASE64_ALPHABET.test(char)) continue;
    quad = (quad + 1) % 4;
    pads = 0;
  }
  return quad === 0;
}

/** The fields of a callable trait, in the original's order (spec 03 §4.1). */
export const CallableTraitFields = z.strictObject({
  type: z.literal("callable").default("callable"),
  name: TraitNameSchema,
  description: OptionalTextSchema,
  summary: OptionalTextSchema,
  kind: ScalarKindSchema,
  // Kept verbatim (never re-encoded) so the serialized function round-trips byte for byte.
  callable_code: z.string().refine(isDecodableBase64, { message: "expected standard base64 text" }),
  min_score: z.int().nullable().default(null),
  max_score: z.int().nullable().default(null),
  invert_result: z.boolean().default(false),
  classes: ClassesSchema,
  higher_is_better: z.boolean().nullable().default(true),
});

/**
 * A trait computed by a function: the original stores it as cloudpickle bytes (base64 in `callable_code`),
 * which only Python can run; in TypeScript a function is registered by trait name at evaluation time.
 * Literal traits need `classes`; their null `min_score`/`max_score` become 0 / n−1.
 * @example
 * CallableTraitSchema.parse({ name: "short", kind: "boolean", callable_code: "" }).invert_result; // false
 */
export const CallableTraitSchema = CallableTraitFields.superRefine((trait, ctx) => {
  if (trait.classes !== null) {
    const problem = classesProblem(trait.classes);
    if (problem !== null) ctx.addIssue({ code: "custom", path: ["classes"], message: problem });
  } else if (trait.kind === "literal") {
    ctx.addIssue({ code: "custom", path: ["classes"], message: LITERAL_WITHOUT_CLASSES });
  }
}).transform((trait) => {
  if (trait.kind !== "literal" || trait.classes === null) return trait;
  const range = literalRange(trait.classes);
  return {
    ...trait,
    min_score: trait.min_score ?? range.min_score,
    max_score: trait.max_score ?? range.max_score,
  };
});

export type CallableTrait = z.infer<typeof CallableTraitSchema>;
export type CallableTraitInput = z.input<typeof CallableTraitSchema>;
