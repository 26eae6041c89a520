import type { LlmTrait } from "../model/rubric/index.js";
import { TraitEvaluationError } from "./errors.js";
import {
  bulletList,
  contextBlocks,
  EVIDENCE_RULES,
  formatHintFor,
  type RubricJudgeRequest,
  type RubricPromptContext,
  referenceGroups,
  referenceOf,
} from "./judge-request.js";

/** The class labels of a literal trait, in class-index order; refuses any other trait. */
export function literalLabels(trait: LlmTrait): string[] {
  if (trait.kind !== "literal" || trait.classes === null) {
    throw new TraitEvaluationError(
      trait.name,
      "llm",
      "kind",
      "only a literal-kind trait with classes is classified",
    );
  }
  return Object.keys(trait.classes);
}

/** A literal trait as listed in a prompt: its description, then its classes in order. */
function traitBlock(trait: LlmTrait): string {
  const labels = literalLabels(trait);
  const classes = labels.map((label) => `    - ${label}: ${trait.classes?.[label]}`).join("\n");
  const description = trait.description ? `: ${trait.description}` : "";
  return `${trait.name}${description}\n  Classes (choose exactly one, by its name):\n${classes}`;
}

const firstLabel = (trait: LlmTrait) => literalLabels(trait)[0] as string;

const BATCH_SYSTEM = [
  "You are a rigorous evaluator of written responses. For each trait you are given, you classify one response into exactly one of the trait's classes.",
  "",
  "Rules:",
  bulletList([
    "Give one classification per trait, with the trait name exactly as written.",
    "Use a class name exactly as listed for that trait (same spelling and case); never invent a class.",
    "Choose the class whose description fits the response best.",
    ...EVIDENCE_RULES,
  ]),
].join("\n");

function batchRequest(
  traits: readonly LlmTrait[],
  context: RubricPromptContext,
  reference: string | null,
): RubricJudgeRequest {
  const example = {
    classifications: traits.map((trait) => ({ trait_name: trait.name, class_name: firstLabel(trait) })),
  };
  return {
    call: "rubric_literal_trait_batch",
    traitNames: traits.map((trait) => trait.name),
    system: BATCH_SYSTEM,
    user: `Classify the response for each of these traits:\n${bulletList(traits.map(traitBlock))}\n\n${contextBlocks(context, reference)}`,
    schema: {
      type: "object",
      properties: {
        classifications: {
          type: "array",
          items: {
            type: "object",
            properties: { trait_name: { type: "string" }, class_name: { type: "string" } },
            required: ["trait_name", "class_name"],
            additionalProperties: false,
          },
        },
      },
      required: ["classifications"],
      additionalProperties: false,
    },
    example,
    formatHint: formatHintFor(example),
  };
}

/**
 * The batch call(s) for literal LLM traits (spec 03 §9.3): every trait with its classes, then the context
 * blocks; reply `{"classifications": [{"trait_name": str, "class_name": str}]}` (a list, for provider
 * compatibility). Traits with `include_ground_truth` get their own call when the batch mixes.
 * @throws TraitEvaluationError for a trait that is not literal.
 * @example
 * const tone = parseRubricTrait({ name: "tone", kind: "literal", classes: { formal: "Formal", casual: "Casual" } }, "llm") as LlmTrait;
 * batchLiteralRequests([tone], { question: "Q?", response: "A." })[0]?.example;
 * // { classifications: [{ trait_name: "tone", class_name: "formal" }] }
 */
export function batchLiteralRequests(
  traits: readonly LlmTrait[],
  context: RubricPromptContext,
): RubricJudgeRequest[] {
  return referenceGroups(traits, context.referenceAnswer).map((group) =>
    batchRequest(group.traits, context, group.referenceAnswer),
  );
}

const SINGLE_SYSTEM = [
  "You are a rigorous evaluator of written responses. You classify one response into exactly one of a trait's classes.",
  "",
  "Rules:",
  bulletList([
    "Use a class name exactly as listed (same spelling and case); never invent a class.",
    "Choose the class whose description fits the response best.",
    ...EVIDENCE_RULES,
  ]),
].join("\n");

/**
 * The call for one literal LLM trait in sequential mode: reply `{"classification": str}`.
 * @throws TraitEvaluationError for a trait that is not literal.
 */
export function sequentialLiteralRequest(trait: LlmTrait, context: RubricPromptContext): RubricJudgeRequest {
  const reference = trait.include_ground_truth ? referenceOf(context) : null;
  const example = { classification: firstLabel(trait) };
  return {
    call: "rubric_literal_trait_single",
    traitNames: [trait.name],
    system: SINGLE_SYSTEM,
    user: `Classify the response for this trait:\n${bulletList([traitBlock(trait)])}\n\n${contextBlocks(context, reference)}`,
    schema: {
      type: "object",
      properties: { classification: { type: "string" } },
      required: ["classification"],
      additionalProperties: false,
    },
    example,
    formatHint: formatHintFor(example),
  };
}
