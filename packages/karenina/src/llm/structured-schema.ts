import { z } from "zod";
import { dottedPath, schemaProblems } from "../errors/index.js";
import type { StructuredSchema } from "./ports.js";

/** A `StructuredSchema` from a Zod schema: its JSON Schema (draft 2020-12) and its `safeParse` as validator. */
export function zodStructuredSchema<T>(
  name: string,
  schema: z.ZodType<T>,
  description?: string,
): StructuredSchema<T> {
  const { $schema: _draft, ...jsonSchema } = z.toJSONSchema(schema) as Record<string, unknown>;
  return {
    name,
    ...(description === undefined ? {} : { description }),
    jsonSchema,
    validate(value) {
      const result = schema.safeParse(value);
      if (result.success) return { success: true, value: result.data };
      const error = schemaProblems(result.error, value)
        .map((p) => (p.path.length > 0 ? `${dottedPath(p.path)}: ${p.message}` : p.message))
        .join("; ");
      return { success: false, error };
    },
  };
}
