import type { StructuredSchema } from "../../llm/index.js";
import {
  type AnswerTemplate,
  coerceToSchema,
  describeProblems,
  type JsonSchema,
} from "../../templates/index.js";
import type { VerificationContext } from "../context.js";
import { type JudgePrompt, promptMessages } from "../prompts/index.js";

/**
 * The structured-output schema of a template's judge call: the relaxed schema (verified fields may be null),
 * checked with the template's own lax coercion, so a reply the template would reject is sent back to the
 * judge with the reason.
 */
export function templateStructuredSchema(
  template: AnswerTemplate,
): StructuredSchema<Record<string, unknown>> {
  const schema = template.structuredOutputSchema;
  const defs = (schema.$defs ?? {}) as Record<string, JsonSchema>;
  return {
    name: template.className.replace(/[^A-Za-z0-9_-]/g, "_") || "Answer",
    jsonSchema: schema,
    validate(value) {
      if (value === null || typeof value !== "object" || Array.isArray(value)) {
        return { success: false, error: "expected a JSON object of field values" };
      }
      const coerced = coerceToSchema(schema, value, "", defs);
      return coerced.ok
        ? { success: true, value: coerced.value as Record<string, unknown> }
        : { success: false, error: describeProblems(coerced.problems) };
    },
  };
}

/**
 * The parsing model's parser-port call with the template's structured schema, usage under `parsing`: the
 * standard parse, and the final "parameters" call of template deep judgment (spec 04 §9.1).
 * @throws {ParseError} when no valid object came back; the call's error after retries otherwise.
 */
export async function parseTemplateAnswer(
  ctx: VerificationContext,
  template: AnswerTemplate,
  prompt: JudgePrompt,
): Promise<Record<string, unknown>> {
  const model = ctx.task.parsing;
  const supportsSystem = ctx.services.ports.parser(model).capabilities.supportsSystemPrompt;
  const result = await ctx.calls.parse({
    stage: "parsing",
    model,
    messages: promptMessages(prompt, supportsSystem),
    schema: templateStructuredSchema(template),
  });
  return result.parsed;
}
