import { z } from "zod";
import type { JsonSchema } from "../../answer-template.js";
import { coerceToSchema } from "../../coerce.js";
import { PrimitiveError } from "../errors.js";
import { plainJson } from "../python-values.js";

/** The field types of a TemplateSpec (spec 02 §9.1). */
export const FIELD_TYPES = ["bool", "str", "int", "float", "list_str", "literal", "date"] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** The serialized form of a primitive: its parameters in declaration order, then `"type"` (spec 02 §4). */
export type SerializedPrimitive = Record<string, unknown> & { type: string };

interface PrimitiveBase {
  readonly type: string;
  /** The validated parameters, every one present (defaults filled), in declaration order. */
  readonly params: Readonly<Record<string, unknown>>;
  /** The JSON dump the original stores in `verify_with`. */
  toJSON(): SerializedPrimitive;
}

/** A primitive that compares the judge's value with the ground truth. */
export interface ValuePrimitive extends PrimitiveBase {
  readonly isTrace: false;
  /** `check(extracted, expected)`; throws a VerificationError where Python raises. */
  check(extracted: unknown, expected: unknown): boolean;
  /** Partial credit (spec 02 §6.4); 1/0 from `check` for non-graded primitives. */
  score(extracted: unknown, expected: unknown): number;
}

/** A primitive that checks the answering model's raw response (spec 02 §6.7). */
export interface TracePrimitive extends PrimitiveBase {
  readonly isTrace: true;
  checkTrace(raw: string): boolean;
}

export type Primitive = ValuePrimitive | TracePrimitive;

/** What a definition's `create` returns: the behaviour, without the identity parts the registry adds. */
export type PrimitiveBehaviour =
  | {
      check(extracted: unknown, expected: unknown): boolean;
      score?(extracted: unknown, expected: unknown): number;
    }
  | { checkTrace(raw: string): boolean };

/** One primitive of the catalogue (spec 02 §6): its parameters, where it applies and how it checks. */
export interface PrimitiveDefinition<S extends z.ZodObject = z.ZodObject> {
  readonly name: string;
  readonly description: string;
  /** The parameters, in the original's declaration order, with their defaults. Unknown keys are ignored. */
  readonly params: S;
  /** Field types it is compatible with (spec 02 §9.3), or null when the original does not check. */
  readonly appliesTo: readonly FieldType[] | null;
  readonly isTrace: boolean;
  create(params: z.output<S>): PrimitiveBehaviour;
}

/** Declares a primitive; the identity function, for type inference. */
export function definePrimitive<S extends z.ZodObject>(
  definition: PrimitiveDefinition<S>,
): PrimitiveDefinition<S> {
  return definition;
}

/** A JSON Schema as coerceToSchema reads it: `type: [a, "null"]` spelled as `anyOf`. */
function forCoercion(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(forCoercion);
  if (schema === null || typeof schema !== "object") return schema;
  const { type, ...rest } = schema as JsonSchema;
  const converted = Object.fromEntries(Object.entries(rest).map(([key, child]) => [key, forCoercion(child)]));
  if (Array.isArray(type)) return { ...converted, anyOf: type.map((t) => ({ type: t })) };
  return type === undefined ? converted : { ...converted, type };
}

const coercionSchemas = new WeakMap<z.ZodObject, JsonSchema>();

/** The input JSON Schema of a parameter set (Pydantic-like: defaults shown, defaulted fields optional). */
export function parametersJsonSchema(params: z.ZodObject): JsonSchema {
  return z.toJSONSchema(params, { io: "input", unrepresentable: "any" }) as JsonSchema;
}

function coercionSchema(params: z.ZodObject): JsonSchema {
  let schema = coercionSchemas.get(params);
  if (!schema) {
    schema = forCoercion(parametersJsonSchema(params)) as JsonSchema;
    coercionSchemas.set(params, schema);
  }
  return schema;
}

/** `1 validation error for X\nfield\n  message`, the shape of a Pydantic ValidationError. */
function validationMessage(name: string, problems: readonly { path: string; message: string }[]): string {
  const count = `${problems.length} validation error${problems.length === 1 ? "" : "s"} for ${name}`;
  return [count, ...problems.flatMap((p) => [p.path || name, `  ${p.message}`])].join("\n");
}

/**
 * Validates a primitive's parameters as Pydantic would (lax coercion, defaults, constraints) and returns them
 * with every parameter present, in declaration order.
 * @throws PrimitiveError with a Pydantic-style message.
 */
export function parsePrimitiveParams(
  definition: PrimitiveDefinition,
  data: Record<string, unknown>,
): Record<string, unknown> {
  const coerced = coerceToSchema(coercionSchema(definition.params), plainJson(data));
  if (!coerced.ok) throw new PrimitiveError(validationMessage(definition.name, coerced.problems));
  const parsed = definition.params.safeParse(coerced.value);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => ({
      path: issue.path.join("."),
      message: issue.message,
    }));
    throw new PrimitiveError(validationMessage(definition.name, problems));
  }
  return parsed.data as Record<string, unknown>;
}

/** The names of the parameters declared as Python floats (their values print as `2.0`, not `2`). */
export function floatParameters(definition: PrimitiveDefinition): Set<string> {
  const properties = (coercionSchema(definition.params).properties ?? {}) as Record<string, JsonSchema>;
  const isNumber = (schema: JsonSchema): boolean =>
    schema.type === "number" ||
    (Array.isArray(schema.anyOf) && (schema.anyOf as JsonSchema[]).some(isNumber));
  return new Set(Object.keys(properties).filter((key) => isNumber(properties[key] as JsonSchema)));
}

/** Reusable parameter schemas with Pydantic's error wording. */
export const param = {
  float: () => z.number({ error: "Input should be a valid number" }),
  positiveFloat: () =>
    z.number({ error: "Input should be a valid number" }).gt(0, "Input should be greater than 0"),
  int: () => z.int({ error: "Input should be a valid integer" }),
  bool: () => z.boolean({ error: "Input should be a valid boolean" }),
  str: () => z.string({ error: "Input should be a valid string" }),
  strList: () =>
    z.array(z.string({ error: "Input should be a valid string" }), { error: "Input should be a valid list" }),
  mode: () => z.enum(["relative", "absolute"], { error: "Input should be 'relative' or 'absolute'" }),
  decay: () => z.enum(["linear", "quadratic"], { error: "Input should be 'linear' or 'quadratic'" }),
};
