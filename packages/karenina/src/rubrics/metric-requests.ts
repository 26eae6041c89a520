import type { MetricTrait } from "../model/rubric/index.js";
import {
  bulletList,
  contextBlocks,
  EVIDENCE_RULES,
  formatHintFor,
  type RubricJudgeRequest,
  type RubricPromptContext,
} from "./judge-request.js";

/** What each list holds, per evaluation mode (spec 03 §5.2 step 1). */
const BUCKET_RULES = {
  tp_only: [
    "tp: excerpts from the response that satisfy a TP instruction (synonyms and close variants count). Quote the response, not the instruction.",
    "fn: content a TP instruction asks for that is missing from the response.",
    "fp: terms in the response that look like answers to the TP instructions but are wrong (same category, incorrect item).",
    "tn: leave empty.",
  ],
  full_matrix: [
    "tp: excerpts from the response that satisfy a TP instruction (synonyms and close variants count). Quote the response, not the instruction.",
    "fn: content a TP instruction asks for that is missing from the response.",
    "fp: content of the response that matches a TN instruction (content that should not be there).",
    "tn: content a TN instruction describes that is correctly absent from the response.",
  ],
} as const;

const numbered = (items: readonly string[]) => items.map((item, i) => `${i + 1}. ${item}`).join("\n");

/**
 * The call for one metric trait (spec 03 §5.2; one call per trait): the trait name and description, the
 * numbered TP instructions (and TN instructions in `full_matrix` mode), the question and the response; reply
 * `{"tp": [...], "fn": [...], "fp": [...], "tn": [...]}` for {@link evaluateMetricReply}.
 * @example
 * const coverage = MetricTraitSchema.parse({ name: "coverage", metrics: ["recall"], tp_instructions: ["COX-1", "COX-2"] });
 * metricTraitRequest(coverage, { question: "Which enzymes does aspirin inhibit?", response: "COX-1." }).user.includes("1. COX-1\n2. COX-2"); // true
 */
export function metricTraitRequest(trait: MetricTrait, context: RubricPromptContext): RubricJudgeRequest {
  const mode = trait.evaluation_mode;
  const system = [
    "You are a meticulous evaluator. You compare a response with lists of instructions and sort what you find into four lists (a confusion matrix).",
    "",
    "The lists:",
    bulletList(BUCKET_RULES[mode]),
    "",
    "Rules:",
    bulletList(["List each item once; keep items short.", ...EVIDENCE_RULES]),
  ].join("\n");
  const sections = [`Trait: ${trait.name}${trait.description ? `\nDescription: ${trait.description}` : ""}`];
  sections.push(`TP instructions (what the response should contain):\n${numbered(trait.tp_instructions)}`);
  if (mode === "full_matrix") {
    sections.push(
      `TN instructions (what the response should not contain):\n${numbered(trait.tn_instructions)}`,
    );
  }
  const example = { tp: ["..."], fn: [], fp: [], tn: [] };
  const list = { type: "array", items: { type: "string" } };
  return {
    call: "rubric_metric_trait",
    traitNames: [trait.name],
    system,
    user: `${sections.join("\n\n")}\n\n${contextBlocks(context, null)}`,
    schema: {
      type: "object",
      properties: { tp: list, fn: list, fp: list, tn: list },
      required: ["tp", "fn", "fp", "tn"],
      additionalProperties: false,
    },
    example,
    formatHint: formatHintFor(example),
  };
}
