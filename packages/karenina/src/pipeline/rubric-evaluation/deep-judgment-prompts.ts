import type { LlmTrait } from "../../model/index.js";
import {
  EXCERPT_CONFIDENCES,
  HALLUCINATION_RISKS,
  type RubricExcerpt,
  scoreBounds,
} from "../../rubrics/index.js";
import type { JudgeRequest } from "./judge.js";

const bullets = (lines: readonly string[]) => lines.map((line) => `- ${line}`).join("\n");
const tagged = (label: string, tag: string, text: string) => `${label}:\n<${tag}>\n${text}\n</${tag}>`;

/**
 * Whether deep judgment scores a trait as a boolean; every other kind (literal and template kinds included)
 * takes the numeric path (spec 03 §10.1, §10.3).
 */
export function isBooleanTrait(trait: LlmTrait): boolean {
  return trait.kind === "boolean";
}

/** `clarity (score 1-5)` / `cites (boolean)`: the trait as every deep-judgment prompt names it. */
function traitHeading(trait: LlmTrait): string {
  if (isBooleanTrait(trait)) return `${trait.name} (boolean)`;
  const { min, max } = scoreBounds(trait);
  return `${trait.name} (score ${min}-${max})`;
}

/** The criterion text: the description, else the kind's fallback; literal classes are listed in order. */
function criterion(trait: LlmTrait): string {
  const fallback = isBooleanTrait(trait) ? "Boolean evaluation" : "Score-based evaluation";
  const base = trait.description || fallback;
  if (trait.kind === "literal" && trait.classes !== null) {
    const classes = Object.entries(trait.classes).map(([label, text], i) => `${i}: ${label} (${text})`);
    return `${base}\nClasses, scored by their number:\n${bullets(classes)}`;
  }
  return base;
}

function traitBlock(trait: LlmTrait): string {
  return `Trait: ${traitHeading(trait)}\nCriterion: ${criterion(trait)}`;
}

const EXCERPT_SYSTEM = [
  "You collect evidence for judging one response against one evaluation trait. You quote the passages of the response that matter for the trait's criterion, whether they support it or count against it.",
  "",
  "Rules:",
  bullets([
    "Quote the response verbatim: copy each excerpt character for character, without paraphrasing, shortening inside the quote, or adding words. Excerpts are checked against the response text.",
    "Prefer short, self-contained passages (a sentence or a clause) to long ones.",
    "Confidence: high when the passage explicitly addresses the criterion, medium when it implies something about it, low when the link is weak.",
    "When nothing in the response bears on the criterion, return an empty list.",
  ]),
].join("\n");

/** A failed excerpt, as the retry feedback lists it. */
function failedLine(excerpt: RubricExcerpt): string {
  return `"${excerpt.text}" (similarity ${excerpt.similarity_score.toFixed(2)})`;
}

/**
 * Excerpt extraction for one trait (task `dj_rubric_excerpt_extraction`, spec 03 §10.3 step 1): the trait,
 * the maximum number of excerpts, the response and, on a retry, the excerpts that were not found verbatim.
 * Reply: `{"excerpts": [{"text": str, "confidence": "high"|"medium"|"low"}]}`.
 */
export function excerptExtractionRequest(
  trait: LlmTrait,
  maxExcerpts: number,
  response: string,
  feedback: readonly RubricExcerpt[] | string | null,
): JudgeRequest {
  const parts = [
    traitBlock(trait),
    `Quote up to ${maxExcerpts} excerpt${maxExcerpts === 1 ? "" : "s"} of the response that bear on this criterion.`,
    tagged("Response", "response", response),
  ];
  if (typeof feedback === "string") {
    parts.push(`Your previous reply could not be used (${feedback}). Reply with the JSON object described.`);
  } else if (feedback !== null && feedback.length > 0) {
    parts.push(
      `These excerpts of your previous reply were not found in the response:\n${bullets(feedback.map(failedLine))}\n` +
        "Quote the response exactly as written, or return an empty list if nothing in it bears on the criterion.",
    );
  }
  const example = { excerpts: [{ text: "...", confidence: "high" }] };
  return {
    task: "dj_rubric_excerpt_extraction",
    system: EXCERPT_SYSTEM,
    user: parts.join("\n\n"),
    schema: {
      type: "object",
      properties: {
        excerpts: {
          type: "array",
          items: {
            type: "object",
            properties: {
              text: { type: "string" },
              confidence: { type: "string", enum: [...EXCERPT_CONFIDENCES] },
            },
            required: ["text", "confidence"],
            additionalProperties: false,
          },
        },
      },
      required: ["excerpts"],
      additionalProperties: false,
    },
    example,
    notes: [
      "Excerpts are matched against the response with a small tolerance for whitespace; anything not in the response is rejected.",
    ],
  };
}

const HALLUCINATION_SYSTEM = [
  "You assess whether a quoted claim is supported by external search results.",
  "",
  "Risk levels:",
  bullets([
    "none: the search results confirm the claim.",
    "low: the results mostly support it, with minor gaps.",
    "medium: the results neither confirm nor contradict it, or support it only in part.",
    "high: the results contradict it, or nothing supports a specific factual claim.",
  ]),
  "Judge only from the search results given, and explain your rating in one or two sentences.",
].join("\n");

/**
 * The hallucination assessment of one excerpt (task `dj_rubric_hallucination`, spec 03 §10.3 step 2).
 * Reply: `{"hallucination_risk": "none"|"low"|"medium"|"high", "justification": str}`.
 */
export function hallucinationRequest(trait: LlmTrait, excerpt: RubricExcerpt): JudgeRequest {
  const results =
    typeof excerpt.search_results === "string"
      ? excerpt.search_results
      : JSON.stringify(excerpt.search_results ?? null, null, 2);
  return {
    task: "dj_rubric_hallucination",
    system: HALLUCINATION_SYSTEM,
    user: [
      `Trait: ${trait.name}`,
      tagged("Excerpt", "excerpt", excerpt.text),
      tagged("Search results", "search_results", results),
      "Rate the hallucination risk of the excerpt.",
    ].join("\n\n"),
    schema: {
      type: "object",
      properties: {
        hallucination_risk: { type: "string", enum: [...HALLUCINATION_RISKS] },
        justification: { type: "string" },
      },
      required: ["hallucination_risk", "justification"],
      additionalProperties: false,
    },
    example: { hallucination_risk: "low", justification: "..." },
  };
}

function excerptLine(excerpt: RubricExcerpt, index: number): string {
  const risk =
    excerpt.hallucination_risk === undefined
      ? ""
      : `; hallucination risk ${excerpt.hallucination_risk}${excerpt.hallucination_justification ? ` (${excerpt.hallucination_justification})` : ""}`;
  return `${index + 1}. "${excerpt.text}" (confidence ${excerpt.confidence}${risk})`;
}

const REASONING_SYSTEM = [
  "You reason about how well a response meets one evaluation criterion, before any score is given.",
  "",
  "Rules:",
  bullets([
    "Write 2-4 sentences: what the evidence shows about the criterion, what it implies for the judgment, and any ambiguity.",
    "Rely only on the evidence given; do not credit content that is not there.",
    "Where excerpts carry a hallucination risk, weigh unsupported claims accordingly.",
    "Do not give the final score; explain the judgment it should follow from.",
  ]),
].join("\n");

/**
 * The reasoning call for one trait (task `dj_rubric_reasoning`, spec 03 §10.3 step 3): from the validated
 * excerpts (with their risks when assessed), or — for a trait without excerpts — from the whole response.
 * The question is shown unless it is null (TaskEval). Reply: `{"reasoning": str}`.
 */
export function reasoningRequest(
  trait: LlmTrait,
  question: string | null,
  evidence: { excerpts: readonly RubricExcerpt[] } | { response: string },
): JudgeRequest {
  const parts = [traitBlock(trait)];
  if (question !== null) parts.push(tagged("Question", "question", question));
  if ("excerpts" in evidence) {
    parts.push(`Excerpts quoted from the response:\n${evidence.excerpts.map(excerptLine).join("\n")}`);
  } else {
    parts.push(tagged("Response to evaluate", "response", evidence.response));
  }
  parts.push("Explain how the response fares against the criterion.");
  return {
    task: "dj_rubric_reasoning",
    system: REASONING_SYSTEM,
    user: parts.join("\n\n"),
    schema: {
      type: "object",
      properties: { reasoning: { type: "string" } },
      required: ["reasoning"],
      additionalProperties: false,
    },
    example: { reasoning: "..." },
  };
}

const SCORE_SYSTEM =
  "You turn an evaluator's reasoning about one criterion into the trait's value. Follow the reasoning; do not re-judge.";

/**
 * The score extraction for one trait (task `dj_rubric_score_extraction`, spec 03 §10.3 step 4): the reasoning
 * in, `{"result": bool}` (boolean traits) or `{"score": int}` (every other kind, within the trait's range) out.
 */
export function scoreExtractionRequest(trait: LlmTrait, reasoning: string): JudgeRequest {
  const parts = [traitBlock(trait), tagged("Reasoning", "reasoning", reasoning)];
  if (isBooleanTrait(trait)) {
    parts.push('Answer "result": true if the reasoning finds the criterion met, false if not.');
    return scoreExtraction(parts, "result", { type: "boolean" }, true);
  }
  const { min, max } = scoreBounds(trait);
  parts.push(
    `Answer "score": a whole number from ${min} (poorest) to ${max} (best) that the reasoning supports.`,
  );
  return scoreExtraction(
    parts,
    "score",
    { type: "integer", minimum: min, maximum: max },
    Math.min(min + 2, max),
  );
}

/** A score-extraction request whose reply is the one field `key`, of JSON Schema `property`. */
function scoreExtraction(
  parts: readonly string[],
  key: string,
  property: Record<string, unknown>,
  example: unknown,
): JudgeRequest {
  return {
    task: "dj_rubric_score_extraction",
    system: SCORE_SYSTEM,
    user: parts.join("\n\n"),
    schema: {
      type: "object",
      properties: { [key]: property },
      required: [key],
      additionalProperties: false,
    },
    example: { [key]: example },
  };
}
