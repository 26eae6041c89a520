/**
 * The structured replies of template generation (spec 06 §7): the ground-truth spec of phase 1 and the field
 * descriptions of phase 2. Each Zod schema is both the JSON Schema sent to the model and the check of its
 * reply; a reply that fails the check is sent back to the model with the problems. Checks beyond plain types
 * are refinements, which keeps the JSON Schema within what strict structured-output modes accept.
 */
import { z } from "zod";
import { type StructuredSchema, zodStructuredSchema } from "../../llm/index.js";
import { type AttributeType, groundTruthProblem, parseAttributeType } from "./attribute-type.js";

/** Names a field cannot take: BaseAnswer's own field and methods, and pydantic's namespace. */
const RESERVED = new Set([
  "id",
  "correct",
  "regex",
  "verify",
  "verify_granular",
  "verify_regex",
  "ground_truth",
]);

const PYTHON_KEYWORDS = new Set(
  (
    "False None True and as assert async await break class continue def del elif else except finally for " +
    "from global if import in is lambda nonlocal not or pass raise return try while with yield"
  ).split(" "),
);

/** Null when `name` can name a field of the answer class, else why not. */
function nameProblem(name: string): string | null {
  if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(name))
    return "expected a snake_case Python identifier starting with a letter";
  if (PYTHON_KEYWORDS.has(name)) return "is a Python keyword";
  if (RESERVED.has(name) || name.startsWith("model_")) return "is reserved by BaseAnswer";
  return null;
}

const GroundTruthAttributeSchema = z.object({
  name: z.string().describe("The attribute's name: a snake_case Python identifier"),
  type: z
    .string()
    .describe(
      "One of bool, int, float, str, List[str] or Literal['a', 'b', ...]; Dict types are not allowed",
    ),
  ground_truth: z
    .union([z.boolean(), z.number(), z.string(), z.array(z.string())])
    .describe("The value the reference answer gives the attribute, of its type"),
});

/** Phase 1's reply: the attributes to extract, each with its type and ground truth (spec 06 §7). */
export const GroundTruthSpecSchema = z
  .object({ attributes: z.array(GroundTruthAttributeSchema) })
  .superRefine((spec, ctx) => {
    if (spec.attributes.length === 0)
      ctx.addIssue({ code: "custom", path: ["attributes"], message: "expected at least one attribute" });
    const seen = new Set<string>();
    spec.attributes.forEach((attribute, index) => {
      const problem = (key: string, message: string) =>
        ctx.addIssue({ code: "custom", path: ["attributes", index, key], message });
      const badName = nameProblem(attribute.name);
      if (badName !== null) problem("name", `${JSON.stringify(attribute.name)} ${badName}`);
      if (seen.has(attribute.name)) problem("name", `${JSON.stringify(attribute.name)} is used twice`);
      seen.add(attribute.name);
      const type = parseAttributeType(attribute.type);
      if (!type.ok) {
        problem("type", type.problem);
        return;
      }
      const expected = groundTruthProblem(type.type, attribute.ground_truth);
      if (expected !== null) {
        problem(
          "ground_truth",
          `a ${attribute.type} attribute needs ${expected}, found ${JSON.stringify(attribute.ground_truth)}`,
        );
      }
    });
  });

export type GroundTruthSpec = z.output<typeof GroundTruthSpecSchema>;

/** The structured-output schema of phase 1. */
export const groundTruthSpecReply: StructuredSchema<GroundTruthSpec> = zodStructuredSchema(
  "TemplateGroundTruthSpec",
  GroundTruthSpecSchema,
  "The attributes of an answer template with their types and ground-truth values",
);

/** An attribute of a validated phase-1 reply, its type read. */
export interface GroundTruthAttribute {
  name: string;
  type: AttributeType;
  /** The type as the model wrote it. */
  typeText: string;
  groundTruth: boolean | number | string | string[];
}

/** The attributes of a reply that passed {@link GroundTruthSpecSchema}. */
export function groundTruthAttributes(spec: GroundTruthSpec): GroundTruthAttribute[] {
  return spec.attributes.flatMap((attribute) => {
    const type = parseAttributeType(attribute.type);
    // The schema's refinement already refused unreadable types.
    if (!type.ok) return [];
    return [
      {
        name: attribute.name,
        type: type.type,
        typeText: attribute.type,
        groundTruth: attribute.ground_truth,
      },
    ];
  });
}

/**
 * Phase 2's reply: one self-contained judge instruction per attribute, for exactly the attributes of `names`.
 */
export function fieldDescriptionsSchema(names: readonly string[]) {
  return z
    .object({
      field_descriptions: z.array(
        z.object({
          name: z.string().describe("The attribute's name, as given"),
          description: z.string().describe("What the judge extracts, in which format and scope"),
        }),
      ),
    })
    .superRefine((reply, ctx) => {
      const given = reply.field_descriptions.map((entry) => entry.name);
      const missing = names.filter((name) => !given.includes(name));
      const unknown = given.filter((name) => !names.includes(name));
      const twice = given.filter((name, index) => given.indexOf(name) !== index);
      const list = (items: string[]) => items.map((item) => JSON.stringify(item)).join(", ");
      const problem = (message: string) =>
        ctx.addIssue({ code: "custom", path: ["field_descriptions"], message });
      if (missing.length > 0) problem(`no description for ${list(missing)}`);
      if (unknown.length > 0)
        problem(`${list(unknown)} ${unknown.length === 1 ? "is" : "are"} not an attribute`);
      if (twice.length > 0) problem(`${list(twice)} described more than once`);
      const empty = reply.field_descriptions.filter((entry) => entry.description.trim() === "");
      if (empty.length > 0) problem(`empty description for ${list(empty.map((entry) => entry.name))}`);
    });
}

export type FieldDescriptions = z.output<ReturnType<typeof fieldDescriptionsSchema>>;

/** The structured-output schema of phase 2 for the attributes `names`. */
export function fieldDescriptionsReply(names: readonly string[]): StructuredSchema<FieldDescriptions> {
  return zodStructuredSchema(
    "TemplateFieldDescriptions",
    fieldDescriptionsSchema(names),
    "A judge instruction for each attribute of an answer template",
  );
}
