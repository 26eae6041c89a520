import { z } from "zod";
import { type StructuredSchema, zodStructuredSchema } from "../../llm/index.js";
import { assemblePrompt, type JudgePrompt, type PromptSettings } from "./assembly.js";
import { readJsonObject } from "./json-reply.js";
import { bulletList, taggedBlock } from "./tagged.js";

/** The abstention judge's reply (spec 04 §8.1): the reasoning first, then the verdict. */
export const AbstentionReplySchema = z.object({
  reasoning: z.string().describe("The quote the decision rests on, and one sentence explaining it."),
  abstention_detected: z.boolean().describe("True when the response declines to answer."),
});
export type AbstentionReply = z.output<typeof AbstentionReplySchema>;

/** The reply's structured-output schema (JSON Schema and validator). */
export const abstentionReplySchema: StructuredSchema<AbstentionReply> = zodStructuredSchema(
  "AbstentionResult",
  AbstentionReplySchema,
  "Whether the response abstains from answering",
);

export interface AbstentionPromptInput extends PromptSettings {
  question: string;
  /** The final AI message or the full trace, per `use_full_trace_for_template`. */
  response: string;
}

const SYSTEM = [
  "You decide whether an AI model's response abstains: whether it explicitly declares that it is not answering the question. Ground every decision in verbatim quotes from the response.",
  "",
  "Procedure:",
  "1. Look for a literal disclaimer of capability: the response says it cannot or will not answer, has no access to the data or tools needed, lacks the knowledge, or declines for policy reasons. Without such a disclaimer, it is not an abstention.",
  "2. If there is one, check whether the response still commits to a concrete answer: a yes or no, a named entity, a number, a classification or a definite claim. Conditional statements, lists of resources to consult and generic background are not commitments. A committed answer means no abstention; no commitment means abstention.",
  "3. If it remains unclear, it is not an abstention.",
  "",
  "Distinctions:",
  bulletList([
    'Hedging words ("probably", "I believe", "likely") are not disclaimers.',
    "Caveats attached to a committed answer do not make it an abstention.",
    "A disclaimer followed only by general educational material is an abstention.",
    "Reporting that a tool or search returned nothing is not an abstention.",
  ]),
  "",
  'Reply with a JSON object: "reasoning" first (the quote you relied on and one sentence of explanation), then "abstention_detected" (true or false).',
].join("\n");

/**
 * The abstention check's prompt (spec 04 §8.1, task `abstention_detection`; sent to the parsing model at
 * temperature 0): a system text stating the decision procedure, and the question and response in tagged blocks.
 * Reply: {@link AbstentionReplySchema}.
 */
export function abstentionPrompt(input: AbstentionPromptInput): JudgePrompt {
  const user = [
    taggedBlock("Question", "question", input.question),
    taggedBlock("Response", "response", input.response),
    "Decide whether the response abstains, and reply with the JSON object.",
  ].join("\n\n");
  return assemblePrompt("abstention_detection", { system: SYSTEM, user }, input, {
    jsonSchema: abstentionReplySchema.jsonSchema,
    example: { reasoning: "...", abstention_detected: false },
  });
}

/** The outcome of an abstention check; `performed` is false when the reply was unusable. */
export interface AbstentionOutcome {
  performed: boolean;
  detected: boolean;
  reasoning: string | null;
}

/**
 * Reads the abstention judge's reply: a structured object, or JSON in the reply text (fences tolerated). A reply
 * without a boolean `abstention_detected` counts as a failed check: `{performed: false, detected: false}`.
 */
export function readAbstentionReply(reply: unknown): AbstentionOutcome {
  const value = readJsonObject(reply);
  if (value === null || typeof value.abstention_detected !== "boolean") {
    return { performed: false, detected: false, reasoning: null };
  }
  const reasoning = typeof value.reasoning === "string" ? value.reasoning : null;
  return { performed: true, detected: value.abstention_detected, reasoning };
}
