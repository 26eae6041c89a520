import { z } from "zod";
import { assertSchemaWithinLimits, SchemaLimitError } from "../../json-schema-limits/index.js";
import { PROTO_KEY } from "../../plain-data/index.js";

/**
 * A trait name: at least one character (dots are refused by the rubric, spec 03 §6), and not `__proto__`:
 * results key every score by trait name, and that one key cannot be kept in a plain object or a Zod record.
 */
export const TraitNameSchema = z
  .string()
  .min(1)
  .refine((name) => name !== PROTO_KEY, {
    message: `"${PROTO_KEY}" cannot be a trait name (results are keyed by trait name); rename the trait`,
  });

/** An optional text field of a trait (`description`, `summary`), null when absent. */
export const OptionalTextSchema = z.string().nullable().default(null);

/** The scalar kinds shared by LLM, callable and agentic traits. */
export const ScalarKindSchema = z.enum(["boolean", "score", "literal"]);
export type ScalarKind = z.infer<typeof ScalarKindSchema>;

/**
 * A template-kind ("structured") trait: the JSON Schema of the class the judge fills (spec 03 §2.5),
 * written to checkpoints and dumps as `{"type": "template", "schema": …}`. The schema comes from checkpoints
 * and is walked with its `$ref`s expanded (the lax coercion of the judge's reply tries each `anyOf` branch),
 * so one too large, too deep or recursive once expanded is refused here, where the trait is read.
 */
export const TemplateKindSchema = z
  .strictObject({
    type: z.literal("template"),
    schema: z.record(z.string(), z.unknown()),
  })
  .superRefine((kind, ctx) => {
    try {
      assertSchemaWithinLimits(kind.schema, "template trait", "schema");
    } catch (error) {
      if (!(error instanceof SchemaLimitError)) throw error;
      ctx.addIssue({ code: "custom", message: error.message });
    }
  });
export type TemplateKind = z.infer<typeof TemplateKindSchema>;

/** The `kind` of LLM and agentic traits: a scalar kind or a template kind. */
export const TraitKindSchema = z.union([ScalarKindSchema, TemplateKindSchema], {
  error: () => 'expected "boolean", "score", "literal" or {"type": "template", "schema": {...}}',
});
export type TraitKind = z.infer<typeof TraitKindSchema>;

export function isTemplateKind(kind: unknown): kind is TemplateKind {
  return typeof kind === "object" && kind !== null;
}

/**
 * Literal-kind classes: label → description, in class-index order. A class named `__proto__` is refused: Zod
 * would drop it without a word, shifting the index of every later class.
 */
export const ClassesSchema = z
  .preprocess(
    (value, ctx) => {
      if (typeof value === "object" && value !== null && Object.hasOwn(value, PROTO_KEY)) {
        ctx.addIssue({ code: "custom", message: `"${PROTO_KEY}" cannot be a class name; rename the class` });
      }
      return value;
    },
    z.record(z.string(), z.string()),
  )
  .nullable()
  .default(null);
export type Classes = z.infer<typeof ClassesSchema>;

const MAX_CLASSES = 20;

/** The first rule of spec 03 §2.2 that `classes` breaks, or null. */
export function classesProblem(classes: Record<string, string>): string | null {
  const labels = Object.keys(classes);
  if (labels.length < 2) return "Literal trait must have at least 2 classes";
  if (labels.length > MAX_CLASSES) return `Literal trait cannot have more than ${MAX_CLASSES} classes`;
  const seen = new Set<string>();
  for (const label of labels) {
    if (label.trim() === "") return "Class names cannot be empty";
    if ((classes[label] ?? "").trim() === "") return `Description for class '${label}' cannot be empty`;
    const folded = label.toLowerCase();
    if (seen.has(folded)) return `Duplicate class name (case-insensitive): '${label}'`;
    seen.add(folded);
  }
  return null;
}

export const LITERAL_WITHOUT_CLASSES = "classes field is required when kind='literal'";

/**
 * What parsing does to LLM and agentic traits after validation: a literal trait's range becomes 0 … n−1, and
 * an omitted `higher_is_better` becomes true (the original's "legacy default", spec 03 §2.4).
 */
export function withJudgedDefaults<
  T extends { kind: unknown; classes: Classes; higher_is_better?: boolean | null },
>(trait: T): T & { higher_is_better: boolean | null } {
  return {
    ...trait,
    ...(trait.kind === "literal" && trait.classes !== null ? literalRange(trait.classes) : {}),
    higher_is_better: trait.higher_is_better === undefined ? true : trait.higher_is_better,
  };
}

/** The score range a literal trait is forced to: 0 … n−1 (spec 03 §2.2). */
export function literalRange(classes: Record<string, string>): { min_score: number; max_score: number } {
  return { min_score: 0, max_score: Object.keys(classes).length - 1 };
}
