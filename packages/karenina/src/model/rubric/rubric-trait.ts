import { z } from "zod";
import { AgenticTraitFields, AgenticTraitSchema } from "./agentic-trait.js";
import { CallableTraitFields, CallableTraitSchema } from "./callable-trait.js";
import { issuesFromZod, RubricError } from "./errors.js";
import { LlmTraitFields, LlmTraitSchema } from "./llm-trait.js";
import { MetricTraitFields, MetricTraitSchema } from "./metric-trait.js";
import { RegexTraitFields, RegexTraitSchema } from "./regex-trait.js";
import { isTemplateKind } from "./trait-fields.js";

/** The five trait models, in the order a rubric lists them. */
export const TRAIT_TYPES = ["llm", "regex", "callable", "metric", "agentic"] as const;
export type TraitType = (typeof TRAIT_TYPES)[number];

/** Each trait type's schema: parsing through it fills in `type`, so Python dumps (which have none) parse. */
export const TRAIT_SCHEMAS = {
  llm: LlmTraitSchema,
  regex: RegexTraitSchema,
  callable: CallableTraitSchema,
  metric: MetricTraitSchema,
  agentic: AgenticTraitSchema,
} as const;

/** Each trait type's field list, in the original's field order (used for Python-shaped dumps). */
export const TRAIT_FIELDS = {
  llm: Object.keys(LlmTraitFields.shape),
  regex: Object.keys(RegexTraitFields.shape),
  callable: Object.keys(CallableTraitFields.shape),
  metric: Object.keys(MetricTraitFields.shape),
  agentic: Object.keys(AgenticTraitFields.shape),
} as const satisfies Record<TraitType, readonly string[]>;

/** Any rubric trait, told apart by `type`. */
export const RubricTraitSchema = z.discriminatedUnion("type", [
  LlmTraitSchema,
  RegexTraitSchema,
  CallableTraitSchema,
  MetricTraitSchema,
  AgenticTraitSchema,
]);
export type RubricTrait = z.infer<typeof RubricTraitSchema>;
export type RubricTraitInput = z.input<typeof RubricTraitSchema>;

/** How a trait's subject reads in messages: `regex trait "has_citation"`. */
export function traitSubject(type: TraitType | null, input: unknown): string {
  const name =
    typeof input === "object" && input !== null && typeof (input as { name?: unknown }).name === "string"
      ? ` "${(input as { name: string }).name}"`
      : "";
  return `${type ?? "rubric"} trait${name}`;
}

/**
 * Parses one trait. With `type`, the input is read with that kind's schema and may omit `type` (as a Python
 * `model_dump` does); without it, the input must carry `type`.
 * @throws RubricError naming the trait and the field.
 * @example
 * parseRubricTrait({ name: "clarity", kind: "score" }, "llm").max_score; // 5
 */
export function parseRubricTrait(input: unknown, type?: TraitType): RubricTrait {
  const schema = type === undefined ? RubricTraitSchema : TRAIT_SCHEMAS[type];
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const declared = (input as { type?: unknown } | null)?.type;
  const subjectType =
    type ?? ((TRAIT_TYPES as readonly unknown[]).includes(declared) ? (declared as TraitType) : null);
  throw new RubricError(
    issuesFromZod(result.error, input, (path) => ({
      subject: traitSubject(subjectType, input),
      field: path,
    })),
  );
}

export type TraitKindLabel =
  | "llm_boolean"
  | "llm_score"
  | "llm_literal"
  | "llm_template"
  | "regex"
  | "callable"
  | "metric"
  | "agentic";

/**
 * A short label of what a trait is, for listings and messages.
 * @example
 * traitKindLabel(parseRubricTrait({ name: "tone", kind: "literal", classes: { a: "A", b: "B" } }, "llm")); // "llm_literal"
 */
export function traitKindLabel(trait: RubricTrait): TraitKindLabel {
  if (trait.type !== "llm") return trait.type;
  return isTemplateKind(trait.kind) ? "llm_template" : `llm_${trait.kind}`;
}
