import type { PromptText } from "./assembly.js";

export interface EquivalencePromptInput {
  /** The question, when there is one. */
  question: string | null;
  /** The parsed answer's ground truth (`correct` merged with the verified fields' ground truths). */
  groundTruth: Record<string, unknown>;
  /** The parsed answer's fields (without `id`, `correct`, `regex`). */
  parsed: Record<string, unknown>;
}

const SYSTEM = [
  "You judge whether two structured answers to the same question say the same thing. One is the expected (ground truth) answer, the other was extracted from a model's response.",
  "They are equivalent when they give the question the same substantive answer. Differences in formatting, wording, capitalisation, word order or level of detail that do not change the substance do not matter.",
  "Reply with exactly one word: YES if they are equivalent, NO if they are not.",
].join("\n\n");

/**
 * The semantic-equivalence call of the embedding check (spec 04 §10 step 4), made only when the embeddings are
 * similar enough: the question (when there is one), the ground-truth JSON and the parsed answer's JSON; the
 * judge replies YES or NO. Not a `PromptTask` in the original, so no user instructions or adapter additions
 * apply. This is the one judge call that sees ground truth, by design: it compares it with an already parsed
 * answer.
 */
export function equivalencePrompt(input: EquivalencePromptInput): PromptText {
  const parts: string[] = [];
  if (input.question !== null && input.question !== "") parts.push(`Question:\n${input.question}`);
  parts.push(
    `Expected answer (JSON):\n${JSON.stringify(input.groundTruth, null, 2)}`,
    `Extracted answer (JSON):\n${JSON.stringify(input.parsed, null, 2)}`,
    "Are they equivalent? Reply YES or NO.",
  );
  return { system: SYSTEM, user: parts.join("\n\n") };
}

/** The judge's verdict: equivalent iff the reply, trimmed and upper-cased, starts with `YES`. */
export function readEquivalenceReply(reply: string): boolean {
  return reply.trim().toUpperCase().startsWith("YES");
}
