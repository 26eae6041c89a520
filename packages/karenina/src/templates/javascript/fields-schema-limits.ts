import { assertSchemaWithinLimits, SchemaLimitError } from "../../json-schema-limits/index.js";
import { TemplateError } from "../answer-template.js";

/**
 * Refuses a template's fields schema whose expansion would not stay small, before anything walks it
 * ({@link assertSchemaWithinLimits}): the judge schema, the structured-output schema, the load-time dummy
 * answer and the coercion of judges' answers are therefore bounded.
 * @throws {TemplateError} a limit is crossed; the message names the path in `fields`, the limit and the
 * `$ref`s being expanded there.
 */
export function assertFieldsSchemaWithinLimits(fields: unknown): void {
  try {
    assertSchemaWithinLimits(fields, "fields");
  } catch (error) {
    if (error instanceof SchemaLimitError) throw new TemplateError(error.message, { cause: error });
    throw error;
  }
}
