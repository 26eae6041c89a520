import { isTemplateKind, type LlmTrait, type TemplateKind } from "../model/rubric/index.js";
import { TraitEvaluationError } from "./errors.js";
import {
  bulletList,
  contextBlocks,
  EVIDENCE_RULES,
  formatHintFor,
  type JsonSchema,
  type RubricJudgeRequest,
  type RubricPromptContext,
  referenceOf,
} from "./judge-request.js";

/** One field of a template-kind trait's class, read from its JSON Schema (spec 03 §2.5). */
export interface TemplateField {
  readonly name: string;
  /** `integer`, `number`, `string`, `boolean` or `array`; a missing or unknown type reads as `string`. */
  readonly type: "integer" | "number" | "string" | "boolean" | "array";
  /** The item type of an `array` field (default `string`). */
  readonly itemType: "integer" | "number" | "string" | "boolean";
  /** `Optional[...]`: null is accepted. */
  readonly nullable: boolean;
  readonly description: string | null;
  /** The field's default, when the schema gives one. */
  readonly default?: unknown;
  readonly required: boolean;
}

const SCALARS = ["integer", "number", "string", "boolean"] as const;
type Scalar = (typeof SCALARS)[number];
const asScalar = (type: unknown): Scalar => (SCALARS.includes(type as Scalar) ? (type as Scalar) : "string");

/** The property's own type and nullability, resolving `anyOf` with one non-null branch as Optional. */
function propertyType(property: Record<string, unknown>): {
  schema: Record<string, unknown>;
  nullable: boolean;
} {
  const branches = property.anyOf;
  if (!Array.isArray(branches)) return { schema: property, nullable: false };
  const typed = branches.filter((b): b is Record<string, unknown> => typeof b === "object" && b !== null);
  const nonNull = typed.filter((branch) => branch.type !== "null");
  if (nonNull.length === 1 && typed.length === branches.length) {
    return { schema: nonNull[0] as Record<string, unknown>, nullable: nonNull.length < typed.length };
  }
  return { schema: { type: "string" }, nullable: false };
}

/**
 * The fields of a template-kind trait, as the original rebuilds its class from the stored JSON Schema
 * (spec 03 §2.5): `integer`, `number`, `string`, `boolean`, `array` of one of those; `anyOf` with exactly one
 * non-null branch is Optional; anything else reads as a string. A field is required when listed in
 * `required` and it has no default.
 * @example
 * templateFields({ type: "template", schema: { properties: { n: { type: "integer" } }, required: ["n"] } });
 * // [{ name: "n", type: "integer", itemType: "string", nullable: false, description: null, required: true }]
 */
export function templateFields(kind: TemplateKind): TemplateField[] {
  const properties = (kind.schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  const required = new Set(Array.isArray(kind.schema.required) ? kind.schema.required : []);
  return Object.entries(properties).map(([name, property]) => {
    const { schema, nullable } = propertyType(property);
    const type = schema.type === "array" ? "array" : asScalar(schema.type);
    const items = (schema.items ?? {}) as Record<string, unknown>;
    const hasDefault = "default" in property;
    return {
      name,
      type,
      itemType: asScalar(items.type),
      nullable,
      description: typeof property.description === "string" ? property.description : null,
      ...(hasDefault ? { default: property.default } : {}),
      required: !hasDefault && required.has(name),
    };
  });
}

/** The template kind of a trait; refuses a scalar-kind trait. */
export function templateKindOf(trait: LlmTrait): TemplateKind {
  if (!isTemplateKind(trait.kind)) {
    throw new TraitEvaluationError(
      trait.name,
      "llm",
      "kind",
      `a ${trait.kind}-kind trait has no template to fill`,
    );
  }
  return trait.kind;
}

const EXAMPLE_SCALARS: Record<Scalar, unknown> = { integer: 0, number: 0.0, string: "...", boolean: true };

function exampleOf(fields: readonly TemplateField[]): Record<string, unknown> {
  return Object.fromEntries(
    fields.map((field) => [
      field.name,
      field.type === "array" ? [EXAMPLE_SCALARS[field.itemType]] : EXAMPLE_SCALARS[field.type],
    ]),
  );
}

function fieldLine(field: TemplateField): string {
  const type = field.type === "array" ? `list of ${field.itemType}` : field.type;
  const optional = field.nullable ? ", may be null" : "";
  return `${field.name} (${type}${optional})${field.description ? `: ${field.description}` : ""}`;
}

const SYSTEM = [
  "You are a rigorous evaluator of written responses. You judge one response by filling in a structured assessment: one value per field, following each field's description.",
  "",
  "Rules:",
  bulletList([
    "Fill every field with a value of the stated type, using the field names exactly as written.",
    ...EVIDENCE_RULES,
  ]),
].join("\n");

/**
 * The call for one template-kind LLM trait (always one call per trait, spec 03 §9.3): the structured output is
 * the trait's class, whose JSON Schema is stored in `kind.schema`; each field becomes a `trait.field` result.
 * @throws TraitEvaluationError for a trait that is not of template kind.
 * @example
 * const kind = { type: "template" as const, schema: { title: "Steps", properties: { count: { type: "integer", description: "Number of steps" } }, required: ["count"] } };
 * const steps = parseRubricTrait({ name: "steps", kind, higher_is_better: null }, "llm") as LlmTrait;
 * templateTraitRequest(steps, { question: null, response: "First, ... Then, ..." }).example; // { count: 0 }
 */
export function templateTraitRequest(trait: LlmTrait, context: RubricPromptContext): RubricJudgeRequest {
  const kind = templateKindOf(trait);
  const fields = templateFields(kind);
  const reference = trait.include_ground_truth ? referenceOf(context) : null;
  const example = exampleOf(fields);
  const description = trait.description ? `\nWhat to assess: ${trait.description}` : "";
  return {
    call: "rubric_llm_trait_template",
    traitNames: [trait.name],
    system: SYSTEM,
    user: `Trait: ${trait.name}${description}\nFields to fill:\n${bulletList(fields.map(fieldLine))}\n\n${contextBlocks(context, reference)}`,
    schema: structuredClone(kind.schema) as JsonSchema,
    example,
    formatHint: formatHintFor(example),
  };
}
