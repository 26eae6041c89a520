import { z } from "zod";
import { type StructuredSchema, zodStructuredSchema } from "../../llm/index.js";
import type { JsonSchema } from "../../templates/index.js";
import { assemblePrompt, type JudgePrompt, type PromptSettings } from "./assembly.js";
import { readJsonObject } from "./json-reply.js";
import { bulletList, taggedBlock } from "./tagged.js";

/** The sufficiency judge's reply (spec 04 §8.2): the reasoning first, then the verdict. */
export const SufficiencyReplySchema = z.object({
  reasoning: z
    .string()
    .describe("For each required field, the span that could fill it, or why there is none."),
  sufficient: z.boolean().describe("True when every required field has a candidate value in the response."),
});
export type SufficiencyReply = z.output<typeof SufficiencyReplySchema>;

/** The reply's structured-output schema (JSON Schema and validator). */
export const sufficiencyReplySchema: StructuredSchema<SufficiencyReply> = zodStructuredSchema(
  "SufficiencyResult",
  SufficiencyReplySchema,
  "Whether the response holds enough information to fill the schema",
);

export interface SufficiencyPromptInput extends PromptSettings {
  question: string;
  response: string;
  /** The answer's JSON schema with verification metadata (ground truth) stripped: the judge schema. */
  schema: JsonSchema;
}

const SYSTEM = [
  "You decide whether an AI model's response contains enough information to fill a JSON schema: it is sufficient when every required field of the schema has at least one span of the response that could plausibly be mapped to it.",
  "",
  "Rules:",
  bulletList([
    "Be lenient: hedged, approximate or implied values count as candidates.",
    "Only required fields matter; ignore optional fields and fields with defaults.",
    "The response is insufficient when nothing in it maps to a required field, when it says the information is unknown, or when it is too vague to yield any candidate value.",
    "Go through the required fields one by one; use the question to resolve what a field refers to.",
  ]),
  "",
  'Reply with a JSON object: "reasoning" first (the required fields and what in the response could fill each), then "sufficient" (true or false).',
].join("\n");

/**
 * The sufficiency check's prompt (spec 04 §8.2, task `sufficiency_detection`; parsing model at temperature 0):
 * the decision rules, then the question, the response and the pretty-printed schema. Reply:
 * {@link SufficiencyReplySchema}.
 */
export function sufficiencyPrompt(input: SufficiencyPromptInput): JudgePrompt {
  const user = [
    taggedBlock("Question", "question", input.question),
    taggedBlock("Response", "response", input.response),
    taggedBlock("Schema to fill", "schema", JSON.stringify(input.schema, null, 2)),
    "Decide whether the response is sufficient to fill the schema, and reply with the JSON object.",
  ].join("\n\n");
  return assemblePrompt("sufficiency_detection", { system: SYSTEM, user }, input, {
    jsonSchema: sufficiencyReplySchema.jsonSchema,
    example: { reasoning: "...", sufficient: true },
  });
}

/** The outcome of a sufficiency check; `performed` is false when the reply was unusable. */
export interface SufficiencyOutcome {
  performed: boolean;
  sufficient: boolean;
  reasoning: string | null;
}

/**
 * Reads the sufficiency judge's reply: a structured object, or JSON in the reply text (fences tolerated). A reply
 * without a boolean `sufficient` counts as a failed check, which defaults to sufficient:
 * `{performed: false, sufficient: true}`.
 */
export function readSufficiencyReply(reply: unknown): SufficiencyOutcome {
  const value = readJsonObject(reply);
  if (value === null || typeof value.sufficient !== "boolean") {
    return { performed: false, sufficient: true, reasoning: null };
  }
  const reasoning = typeof value.reasoning === "string" ? value.reasoning : null;
  return { performed: true, sufficient: value.sufficient, reasoning };
}
