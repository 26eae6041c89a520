import { z } from "zod";
import type { JsonSchema } from "../../templates/index.js";
import { assemblePrompt, type JudgePrompt, type PromptSettings } from "./assembly.js";
import { readJsonObject } from "./json-reply.js";
import { bulletList, taggedBlock } from "./tagged.js";

/**
 * The reply of the dynamic-parsing decision call (spec 05 §12.5 step 4): the final message suffices, with the
 * answer filled from it; or it does not, and the workspace must be investigated.
 */
export const DecisionReplySchema = z.discriminatedUnion("sufficient", [
  z.object({
    reasoning: z.string().optional().describe("Why the final message alone determines every field."),
    sufficient: z.literal(true),
    answer: z
      .record(z.string(), z.unknown())
      .describe("The template's fields, filled from the final message."),
  }),
  z.object({
    reasoning: z.string().describe("What the final message leaves undetermined."),
    sufficient: z.literal(false),
  }),
]);
export type DecisionReply = z.output<typeof DecisionReplySchema>;

export interface DecisionPromptInput extends PromptSettings {
  question: string;
  /** The answering agent's final message. */
  finalMessage: string;
  /** The judge schema: ground truth stripped. */
  judgeSchema: JsonSchema;
}

const SYSTEM = [
  "You screen an AI assistant's final message before an agent investigates its workspace. Decide whether the final message alone is enough to fill a JSON schema and, if it is, fill it.",
  "",
  "Rules:",
  bulletList([
    "Use only the final message: no other knowledge, no guesses.",
    "Values that live only in files (the message points to a file, or says results were saved without stating them) make the message insufficient.",
    "Fill the answer with the schema's field names and types. Use null only when the message itself establishes that the value cannot be determined.",
    "There is no ground truth to compare with: report what the message says, right or wrong.",
  ]),
  "",
  'Reply with one JSON object and nothing else: {"reasoning": "...", "sufficient": true, "answer": {...}} when the message suffices, {"reasoning": "...", "sufficient": false} when it does not.',
].join("\n");

/**
 * The decision prompt of dynamic agentic parsing (spec 05 §12.5 step 4, task `agentic_parsing_decision`): the
 * question, the final message and the judge schema (never ground truth), in tagged blocks. Reply:
 * {@link DecisionReplySchema}.
 */
export function decisionPrompt(input: DecisionPromptInput): JudgePrompt {
  const user = [
    taggedBlock("Question", "question", input.question),
    taggedBlock("Final message", "final_message", input.finalMessage),
    taggedBlock("Schema to fill", "schema", JSON.stringify(input.judgeSchema, null, 2)),
  ].join("\n\n");
  return assemblePrompt("agentic_parsing_decision", { system: SYSTEM, user }, input);
}

/** A decision reply as read: direct (with the unchecked answer), escalate, or malformed (also escalates). */
export type DecisionOutcome =
  | { kind: "sufficient"; reasoning: string | null; answer: Record<string, unknown> }
  | { kind: "insufficient"; reasoning: string | null }
  | { kind: "malformed"; reasoning: string | null; problem: string };

/**
 * Reads the decision reply (spec 05 §12.5 step 5): the JSON object in the text (fences tolerated).
 * `sufficient: false` escalates; no object, `sufficient` neither true nor false, or a sufficient decision
 * without an answer object is malformed (and escalates too).
 */
export function readDecisionReply(reply: string): DecisionOutcome {
  const value = readJsonObject(reply);
  if (value === null)
    return { kind: "malformed", reasoning: null, problem: "the reply holds no JSON object" };
  const reasoning = typeof value.reasoning === "string" ? value.reasoning : null;
  if (value.sufficient === false) return { kind: "insufficient", reasoning };
  const parsed = DecisionReplySchema.safeParse(value);
  if (!parsed.success) {
    const problem = parsed.error.issues
      .map((issue) => `${issue.path.join(".") || "reply"}: ${issue.message}`)
      .join("; ");
    return { kind: "malformed", reasoning, problem };
  }
  // `sufficient: false` returned above, so a valid reply here is the sufficient branch.
  const decision = parsed.data as Extract<DecisionReply, { sufficient: true }>;
  return { kind: "sufficient", reasoning: decision.reasoning ?? null, answer: decision.answer };
}
