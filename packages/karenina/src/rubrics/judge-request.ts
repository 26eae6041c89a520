/** A JSON Schema object, as handed to a provider's structured-output option. */
export type JsonSchema = Record<string, unknown>;

/**
 * The judge calls of rubric evaluation, named as in the original's usage tracking and prompt overrides
 * (spec 04 §12).
 */
export type RubricJudgeCall =
  | "rubric_llm_trait_batch"
  | "rubric_llm_trait_single"
  | "rubric_literal_trait_batch"
  | "rubric_literal_trait_single"
  | "rubric_llm_trait_template"
  | "rubric_metric_trait";

/** Everything one judge call needs, without transport: the LLM layer sends it, the reply parsers read it. */
export interface RubricJudgeRequest {
  readonly call: RubricJudgeCall;
  /** The traits the call evaluates, in prompt order. */
  readonly traitNames: readonly string[];
  readonly system: string;
  readonly user: string;
  /** JSON Schema of the expected reply, for structured output. */
  readonly schema: JsonSchema;
  /** A reply of the expected shape, for providers without structured output and for the format hint. */
  readonly example: unknown;
  /** One sentence asking for JSON like {@link example}, appended by adapters that need it. */
  readonly formatHint: string;
}

/** What the judge is shown besides the traits. */
export interface RubricPromptContext {
  /** The question; null in TaskEval mode, which omits the question block (spec 03 §9.2). */
  readonly question: string | null;
  /** The rubric evaluation text: the whole trace or the final AI message (spec 03 §9.2). */
  readonly response: string;
  /**
   * The question's reference answer (raw_answer). Shown only in calls for traits with
   * `include_ground_truth` (spec 03 §2.6); null, absent or empty means there is none.
   */
  readonly referenceAnswer?: string | null;
}

/** The reference answer to show, or null when there is none (null, absent or empty). */
function usableReference(reference: string | null | undefined): string | null {
  return reference === undefined || reference === null || reference === "" ? null : reference;
}

/** The context's reference answer to show, or null when there is none. */
export function referenceOf(context: RubricPromptContext): string | null {
  return usableReference(context.referenceAnswer);
}

/**
 * The question, reference answer and response blocks that end every user prompt, each in its own tagged
 * block. The question block is left out in TaskEval mode, the reference block unless `reference` is given.
 */
export function contextBlocks(context: RubricPromptContext, reference: string | null): string {
  const blocks: string[] = [];
  if (context.question !== null) blocks.push(`Question:\n<question>\n${context.question}\n</question>`);
  if (reference !== null) {
    blocks.push(
      "Reference answer (a correct answer to the question, given to help you judge; the response need not match it word for word):\n" +
        `<reference_answer>\n${reference}\n</reference_answer>`,
    );
  }
  blocks.push(`Response to evaluate:\n<response>\n${context.response}\n</response>`);
  return blocks.join("\n\n");
}

/** The rules every rubric judge prompt ends its system text with. */
export const EVIDENCE_RULES = [
  "Ground every judgment in what the response actually says; do not credit content that is not there, and do not assume knowledge the response does not show.",
  "Apply the same standard throughout and judge honestly, whether the result is favourable or not.",
];

export function bulletList(lines: readonly string[]): string {
  return lines.map((line) => `- ${line}`).join("\n");
}

export function formatHintFor(example: unknown): string {
  return `Respond with only a JSON object of this form, with no other text: ${JSON.stringify(example)}`;
}

/** One batch call's traits and the reference answer it may show. */
export interface ReferenceGroup<T> {
  readonly traits: readonly T[];
  /** The reference answer for this call: set only when every trait of the group opted in. */
  readonly referenceAnswer: string | null;
}

/**
 * Splits a batch so that traits with `include_ground_truth` never share a call with traits without it
 * (spec 03 §2.6): with a reference answer and both kinds of traits, two calls (the others first); otherwise
 * one call, showing the reference only if every trait opted in. No traits, no call.
 * @example
 * const plain = parseRubricTrait({ name: "clarity", kind: "score" }, "llm") as LlmTrait;
 * const graded = parseRubricTrait({ name: "correct", kind: "boolean", include_ground_truth: true }, "llm") as LlmTrait;
 * referenceGroups([plain, graded], "BCL2").map((group) => [group.traits.map((t) => t.name), group.referenceAnswer]);
 * // [[["clarity"], null], [["correct"], "BCL2"]]
 */
export function referenceGroups<T extends { include_ground_truth: boolean }>(
  traits: readonly T[],
  referenceAnswer: string | null | undefined,
): ReferenceGroup<T>[] {
  if (traits.length === 0) return [];
  const reference = usableReference(referenceAnswer);
  const opted = traits.filter((trait) => trait.include_ground_truth);
  if (reference === null || opted.length === 0) return [{ traits, referenceAnswer: null }];
  if (opted.length === traits.length) return [{ traits, referenceAnswer: reference }];
  return [
    { traits: traits.filter((trait) => !trait.include_ground_truth), referenceAnswer: null },
    { traits: opted, referenceAnswer: reference },
  ];
}
