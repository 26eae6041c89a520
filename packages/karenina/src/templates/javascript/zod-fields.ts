import { z } from "zod";
import type { JsonSchema } from "../answer-template.js";
import { TemplateError } from "../answer-template.js";

/** Keys Zod adds that say nothing to a judge: the draft URI and the bounds every `z.int()` carries. */
const SAFE_INTEGER_BOUNDS = new Set([Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]);

/**
 * The JSON Schema of an answer's fields, from a Zod object: `z.toJSONSchema` in input mode (a field with a
 * `.default()` is optional for the judge), without the draft's noise: `$schema`, the root's
 * `additionalProperties: false`, the ±2^53 bounds of `z.int()` and `propertyNames: {type: "string"}` of
 * records. Descriptions come from `.describe()` or `.meta({ description })`; an object with
 * `.meta({ id: "Citation" })` becomes a `$defs` entry referenced by `$ref`, other nested objects stay inline.
 * @throws {TemplateError} a field cannot be represented as JSON data (a date, a transform, a bigint...).
 */
export function zodFieldsSchema(fields: z.ZodObject): JsonSchema {
  let schema: JsonSchema;
  try {
    schema = z.toJSONSchema(fields, { io: "input" }) as JsonSchema;
  } catch (error) {
    throw new TemplateError(`fields cannot be sent to a judge as JSON Schema: ${(error as Error).message}`);
  }
  const { $schema: _draft, additionalProperties: _closed, ...rest } = schema;
  return withoutNoise(rest) as JsonSchema;
}

function withoutNoise(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNoise);
  if (value === null || typeof value !== "object") return value;
  const entries = Object.entries(value as Record<string, unknown>).filter(([key, child]) => {
    if ((key === "minimum" || key === "maximum") && SAFE_INTEGER_BOUNDS.has(child as number)) return false;
    return !(key === "propertyNames" && isPlainStringSchema(child));
  });
  return Object.fromEntries(entries.map(([key, child]) => [key, withoutNoise(child)]));
}

function isPlainStringSchema(value: unknown): boolean {
  return (
    typeof value === "object" &&
    value !== null &&
    Object.keys(value).length === 1 &&
    (value as JsonSchema).type === "string"
  );
}
