import type { JsonValue } from "../../sandbox/index.js";
import type { JsonSchema } from "../answer-template.js";

/**
 * A placeholder answer that fits an answer class's schema, in the spirit of the original's dummy instance
 * (spec 02 §2.2): `""` for strings, `0` for numbers, `false`, `[]`, the first allowed value of a literal,
 * the first non-null branch of a union, and objects filled the same way. Every property is given a value;
 * `id` is null. `$ref`s are expanded, so the schema must have passed the fields-schema limits (no cycle, a
 * bounded expansion), as every JavaScript template's has.
 */
export function dummyAnswer(schema: JsonSchema): Record<string, JsonValue> {
  const defs = (schema.$defs ?? {}) as Record<string, JsonSchema>;
  return { ...(dummyValue(schema, defs) as Record<string, JsonValue>), id: null };
}

function dummyValue(schema: JsonSchema, defs: Record<string, JsonSchema>): JsonValue {
  if (typeof schema.$ref === "string") {
    const name = schema.$ref.replace(/^#\/\$defs\//, "");
    return Object.hasOwn(defs, name) ? dummyValue(defs[name] as JsonSchema, defs) : null;
  }
  if (Array.isArray(schema.anyOf)) {
    const branches = schema.anyOf as JsonSchema[];
    const branch = branches.find((candidate) => candidate.type !== "null");
    return branch ? dummyValue(branch, defs) : null;
  }
  if (Array.isArray(schema.enum)) return (schema.enum[0] ?? null) as JsonValue;
  if ("const" in schema) return schema.const as JsonValue;
  switch (schema.type) {
    case "string":
      return "";
    case "integer":
    case "number":
      return 0;
    case "boolean":
      return false;
    case "array":
      return [];
    case "object": {
      const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
      return Object.fromEntries(
        Object.entries(properties).map(([key, child]) => [key, dummyValue(child, defs)]),
      );
    }
    default:
      return null;
  }
}
