import { z } from "zod";
import { type StructuredSchema, zodStructuredSchema } from "../../llm/index.js";
import { assemblePrompt, type JudgePrompt, type PromptSettings } from "./assembly.js";
import { readJsonObject } from "./json-reply.js";
import { taggedBlock } from "./tagged.js";

/** The presence judge's reply (spec 04 §12.6). */
export const PresenceReplySchema = z.object({
  results: z.array(z.object({ trait_name: z.string(), present: z.boolean() })),
});
export type PresenceReply = z.output<typeof PresenceReplySchema>;

/** The reply's structured-output schema (JSON Schema and validator). */
export const presenceReplySchema: StructuredSchema<PresenceReply> = zodStructuredSchema(
  "DynamicRubricPresence",
  PresenceReplySchema,
  "For each concept, whether the response covers it",
);

/** A dynamic trait and the concept it looks for. */
export interface DynamicConcept {
  name: string;
  concept: string;
}

/** A dynamic trait's concept: its summary when set, else its description (spec 03 §8). */
export function traitConcept(trait: {
  name: string;
  summary?: string | null;
  description?: string | null;
}): DynamicConcept {
  return { name: trait.name, concept: trait.summary || trait.description || "" };
}

export interface PresencePromptInput extends PromptSettings {
  concepts: readonly DynamicConcept[];
  /** The response text (final message or trace, per `use_full_trace_for_rubric`). */
  response: string;
}

const SYSTEM = [
  "You check which concepts a response covers. For each concept in the list, decide whether the response addresses it in substance: discusses it, answers something about it, or relies on it. A passing mention of a word is not enough, but when in doubt, count the concept as present.",
  'Reply with a JSON object {"results": [{"trait_name": <name>, "present": true or false}]}, one entry per concept, using each name exactly as listed.',
].join("\n\n");

/**
 * The presence check of dynamic rubric traits (spec 04 §12.6, task `rubric_dynamic_presence_check`; parsing
 * model at temperature 0): each concept as `- **<name>**: <concept>`, then the response. Reply:
 * {@link PresenceReplySchema}.
 */
export function presenceCheckPrompt(input: PresencePromptInput): JudgePrompt {
  const list = input.concepts.map((c) => `- **${c.name}**: ${c.concept}`).join("\n");
  const user = [
    `Concepts:\n${list}`,
    taggedBlock("Response", "response", input.response),
    "Which of these concepts does the response cover? Reply with the JSON object.",
  ].join("\n\n");
  const example = { results: input.concepts.map((c) => ({ trait_name: c.name, present: true })) };
  return assemblePrompt("rubric_dynamic_presence_check", { system: SYSTEM, user }, input, {
    jsonSchema: presenceReplySchema.jsonSchema,
    example,
  });
}

/**
 * Reads the presence judge's reply into `{traitName: present}` for the traits asked about: a trait missing from
 * the reply, or given with a non-boolean `present`, is absent; an unusable reply (no JSON object, no `results`
 * list) makes every trait absent. Names the judge made up are ignored.
 */
export function readPresenceReply(reply: unknown, traitNames: readonly string[]): Record<string, boolean> {
  const presence: Record<string, boolean> = Object.fromEntries(traitNames.map((name) => [name, false]));
  const results = readJsonObject(reply)?.results;
  if (!Array.isArray(results)) return presence;
  for (const entry of results) {
    if (typeof entry !== "object" || entry === null) continue;
    const { trait_name: name, present } = entry as { trait_name?: unknown; present?: unknown };
    if (typeof name === "string" && Object.hasOwn(presence, name) && present === true) presence[name] = true;
  }
  return presence;
}

/** Why a dynamic trait was not promoted (spec 03 §8). */
export const DYNAMIC_SKIP_REASONS = {
  absent: "concept not present in response",
  filtered: "excluded by rubric_trait_names filter",
} as const;

/**
 * Splits dynamic traits into promoted ones and skipped ones with their reason (spec 04 §12.6): absent ⇒ "concept
 * not present in response"; present but not in `rubricTraitNames` (when set) ⇒ "excluded by rubric_trait_names
 * filter"; else promoted. Order follows `traitNames`.
 */
export function classifyDynamicTraits(
  traitNames: readonly string[],
  presence: Readonly<Record<string, boolean>>,
  rubricTraitNames: readonly string[] | null,
): { promoted: string[]; skipped: Record<string, string> } {
  const promoted: string[] = [];
  const skipped: Record<string, string> = {};
  for (const name of traitNames) {
    if (presence[name] !== true) skipped[name] = DYNAMIC_SKIP_REASONS.absent;
    else if (rubricTraitNames !== null && !rubricTraitNames.includes(name))
      skipped[name] = DYNAMIC_SKIP_REASONS.filtered;
    else promoted.push(name);
  }
  return { promoted, skipped };
}
