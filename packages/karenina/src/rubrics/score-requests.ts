import { isTemplateKind, type LlmTrait } from "../model/rubric/index.js";
import { TraitEvaluationError } from "./errors.js";
import {
  bulletList,
  contextBlocks,
  EVIDENCE_RULES,
  formatHintFor,
  type JsonSchema,
  type RubricJudgeRequest,
  type RubricPromptContext,
  referenceGroups,
  referenceOf,
} from "./judge-request.js";
import { assertScoreRange } from "./score-range.js";

/**
 * The range a score is clamped to: `min_score or 1`, `max_score or 5`, with Python's `or` — a bound of 0
 * counts as unset, so a 0–10 trait is judged and clamped on 1–10 (quirk R2, mirrored).
 * @example
 * scoreBounds({ min_score: 0, max_score: 10 }); // { min: 1, max: 10 }
 */
export function scoreBounds(trait: Pick<LlmTrait, "min_score" | "max_score">): { min: number; max: number } {
  return { min: trait.min_score || 1, max: trait.max_score || 5 };
}

/** Refuses traits that are not boolean/score LLM traits, and score traits with an empty range. */
function checkScalar(trait: LlmTrait): "boolean" | "score" {
  if (trait.kind !== "boolean" && trait.kind !== "score") {
    const kind = isTemplateKind(trait.kind) ? "template" : trait.kind;
    throw new TraitEvaluationError(
      trait.name,
      "llm",
      "kind",
      `a ${kind}-kind trait cannot be judged as a boolean/score trait`,
    );
  }
  assertScoreRange(trait);
  return trait.kind;
}

const describe = (trait: LlmTrait) =>
  trait.description || (trait.kind === "boolean" ? "Boolean evaluation" : "Score-based evaluation");

/** `clarity (score 1-5): <description> Answer with …` — one trait of a batch prompt. */
function traitLine(trait: LlmTrait): string {
  if (checkScalar(trait) === "boolean") {
    return `${trait.name} (boolean): ${describe(trait)}\n  Answer true if the response meets this criterion, false if it does not.`;
  }
  const { min, max } = scoreBounds(trait);
  return `${trait.name} (score ${min}-${max}): ${describe(trait)}\n  Answer a whole number from ${min} (poorest) to ${max} (best).`;
}

/** The value shown for a trait in example replies: `true`, or `min + 2` kept within the range. */
function exampleValue(trait: LlmTrait): boolean | number {
  if (trait.kind === "boolean") return true;
  const { min, max } = scoreBounds(trait);
  return Math.min(min + 2, max);
}

function valueSchema(trait: LlmTrait): JsonSchema {
  if (trait.kind === "boolean") return { type: "boolean" };
  const { min, max } = scoreBounds(trait);
  return { type: "integer", minimum: min, maximum: max };
}

const BATCH_SYSTEM = [
  "You are a rigorous evaluator of written responses. You judge one response against several evaluation traits and report one value per trait.",
  "",
  "Rules:",
  bulletList([
    'Report every trait under "scores", keyed by its name exactly as written (same spelling, case, spaces and punctuation).',
    "Boolean traits: true when the response meets the criterion, false when it does not.",
    "Score traits: a whole number within the trait's range; values outside the range are clamped to it.",
    "A trait you leave out is recorded as not evaluated.",
    ...EVIDENCE_RULES,
  ]),
].join("\n");

function batchRequest(
  traits: readonly LlmTrait[],
  context: RubricPromptContext,
  reference: string | null,
): RubricJudgeRequest {
  const lines = traits.map(traitLine);
  const example = { scores: Object.fromEntries(traits.map((t) => [t.name, exampleValue(t)])) };
  const names = traits.map((trait) => trait.name);
  return {
    call: "rubric_llm_trait_batch",
    traitNames: names,
    system: BATCH_SYSTEM,
    user: `Evaluate the response against each of these traits:\n${bulletList(lines)}\n\n${contextBlocks(context, reference)}`,
    schema: {
      type: "object",
      properties: {
        scores: {
          type: "object",
          properties: Object.fromEntries(traits.map((t) => [t.name, valueSchema(t)])),
          required: names,
          additionalProperties: false,
        },
      },
      required: ["scores"],
      additionalProperties: false,
    },
    example,
    formatHint: formatHintFor(example),
  };
}

/**
 * The batch call(s) for boolean and score LLM traits (spec 03 §9.3): one call listing every trait as
 * `name (boolean)` or `name (score <min>-<max>)` with its description, then the question (left out in
 * TaskEval mode), the reference answer (only in a call whose traits all opted in; two calls when the batch
 * mixes, see {@link referenceGroups}) and the response. Reply: `{"scores": {"<trait>": bool | int}}`.
 * @throws TraitEvaluationError for a literal or template-kind trait, or a score trait with min ≥ max.
 * @example
 * const clarity = parseRubricTrait({ name: "clarity", kind: "score" }, "llm") as LlmTrait;
 * const [request] = batchScoreRequests([clarity], { question: "What is BCL2?", response: "An oncogene." });
 * request.example; // { scores: { clarity: 3 } }
 * request.user.includes("clarity (score 1-5): Score-based evaluation"); // true
 */
export function batchScoreRequests(
  traits: readonly LlmTrait[],
  context: RubricPromptContext,
): RubricJudgeRequest[] {
  return referenceGroups(traits, context.referenceAnswer).map((group) =>
    batchRequest(group.traits, context, group.referenceAnswer),
  );
}

const SINGLE_SYSTEM = [
  "You are a rigorous evaluator of written responses. You judge one response against one evaluation trait.",
  "",
  "Rules:",
  bulletList(EVIDENCE_RULES),
].join("\n");

/**
 * The call for one boolean or score LLM trait in sequential mode (spec 03 §9.3). Boolean: true means the
 * criterion is met, reply `{"result": bool}`. Score: anchors min = poor, `(min+max)//2` = average, max =
 * excellent, reply `{"score": int}`. The reference answer is shown only if the trait opted in.
 * @throws TraitEvaluationError for a literal or template-kind trait, or a score trait with min ≥ max.
 * @example
 * const cites = parseRubricTrait({ name: "cites", kind: "boolean", description: "Cites a source" }, "llm") as LlmTrait;
 * sequentialScoreRequest(cites, { question: null, response: "See [1]." }).example; // { result: true }
 */
export function sequentialScoreRequest(trait: LlmTrait, context: RubricPromptContext): RubricJudgeRequest {
  const kind = checkScalar(trait);
  const reference = trait.include_ground_truth ? referenceOf(context) : null;
  const blocks = contextBlocks(context, reference);
  if (kind === "boolean") {
    const example = { result: true };
    return {
      call: "rubric_llm_trait_single",
      traitNames: [trait.name],
      system: SINGLE_SYSTEM,
      user: `Trait: ${trait.name} (boolean)\nCriterion: ${describe(trait)}\nAnswer "result": true if the response meets the criterion, false if it does not.\n\n${blocks}`,
      schema: {
        type: "object",
        properties: { result: { type: "boolean" } },
        required: ["result"],
        additionalProperties: false,
      },
      example,
      formatHint: formatHintFor(example),
    };
  }
  const { min, max } = scoreBounds(trait);
  const example = { score: exampleValue(trait) };
  return {
    call: "rubric_llm_trait_single",
    traitNames: [trait.name],
    system: SINGLE_SYSTEM,
    user:
      `Trait: ${trait.name} (score ${min}-${max})\nCriterion: ${describe(trait)}\n` +
      `Answer "score": a whole number from ${min} to ${max}, where ${min} = poor, ${Math.floor((min + max) / 2)} = average, ${max} = excellent.\n\n${blocks}`,
    schema: {
      type: "object",
      properties: { score: { type: "integer", minimum: min, maximum: max } },
      required: ["score"],
      additionalProperties: false,
    },
    example,
    formatHint: formatHintFor(example),
  };
}
