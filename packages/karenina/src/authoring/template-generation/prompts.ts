/**
 * The prompts of template generation (spec 06 §7). These are authoring calls: they see the reference answer,
 * which the generated template keeps as ground truth and no judge ever sees during verification.
 */
import { type Message, systemMessage, userMessage } from "../../llm/index.js";
import { attributeTypeText } from "./attribute-type.js";
import type { GroundTruthAttribute } from "./replies.js";

/** What the generator reads of a question: its text, its reference answer and the author's notes. */
export interface TemplateQuestion {
  question: string;
  raw_answer: string;
  answer_notes?: string | null;
}

const block = (label: string, tag: string, text: string) => `${label}:\n<${tag}>\n${text}\n</${tag}>`;

const TEMPLATES = [
  "You design answer templates for an LLM benchmark. A template lists the attributes a judge model extracts from a model's free-text answer to a question; code then compares each extracted attribute with a ground-truth value taken from the reference answer. The judge never sees the reference answer or the ground truth.",
  "",
  "A good template:",
  "- extracts the few attributes that decide whether an answer is correct, not every detail of the reference answer;",
  "- uses precise types: bool for a yes/no fact (e.g. mentions_resistance), int or float for a quantity, Literal['a', 'b'] for a closed set of options, List[str] for several items; str only for a short name or identifier that can be compared exactly;",
  "- never uses Dict types;",
  "- names attributes in snake_case.",
  "",
  "How each type is verified: bool and int exactly; float within 0.1% (relative); str exactly after lowercasing and stripping; List[str] as a set, with exactly the same items; Literal as exactly one of its options.",
].join("\n");

function questionBlocks(question: TemplateQuestion): string[] {
  const notes = question.answer_notes?.trim();
  return [
    block("Question", "question", question.question),
    block("Reference answer", "reference_answer", question.raw_answer),
    ...(notes ? [block("Author's notes on the answer", "answer_notes", notes)] : []),
  ];
}

/** Phase 0: a free-text plan of the attributes, their types and how they will be verified. */
export function planMessages(question: TemplateQuestion): Message[] {
  return [
    systemMessage(TEMPLATES),
    userMessage(
      [
        ...questionBlocks(question),
        "Plan the answer template before it is written: which attributes to extract, the type of each, the value the reference answer gives it, and how the comparison decides correctness (the variants to accept and the answers that must fail). Reply with the plan as plain text.",
      ].join("\n\n"),
    ),
  ];
}

const SPEC_FORMAT = [
  'Reply with a JSON object {"attributes": [{"name": ..., "type": ..., "ground_truth": ...}, ...]}:',
  "- name: a snake_case Python identifier (not id, correct, regex, verify or ground_truth);",
  "- type: bool, int, float, str, List[str], or Literal['a', 'b', ...] with quoted options; Dict types are not allowed;",
  "- ground_truth: the value the reference answer gives the attribute, of its type: true or false for bool, a number for int and float, a string for str, one of the options for Literal, a list of strings for List[str].",
].join("\n");

/** Phase 1: the ground-truth spec, guided by the plan when there is one. */
export function groundTruthMessages(question: TemplateQuestion, plan: string | null): Message[] {
  return [
    systemMessage(`${TEMPLATES}\n\n${SPEC_FORMAT}`),
    userMessage(
      [
        ...questionBlocks(question),
        ...(plan === null ? [] : [block("Plan", "plan", plan)]),
        `Write the template's attributes with their types and ground-truth values${plan === null ? "" : ", following the plan"}, and reply with the JSON object.`,
      ].join("\n\n"),
    ),
  ];
}

const DESCRIPTIONS = [
  "You write the instructions a judge model follows to extract each attribute of an answer template from a model's free-text answer. The judge sees only the question, the answer and these instructions: never the reference answer or the expected values.",
  "",
  "Each instruction must be self-contained: what to extract, in which format (matching the attribute's type), its scope (what counts and what does not) and how to resolve ambiguity (several candidates, hedged or missing answers). For a bool attribute, say what makes it true. For a Literal attribute, name the options. Never state or hint at the expected value.",
  "",
  'Reply with a JSON object {"field_descriptions": [{"name": ..., "description": ...}, ...]}: one entry per attribute, named as in the specification.',
].join("\n");

/** The attributes as the spec JSON shown to the model in phase 2. */
export function specJson(attributes: readonly GroundTruthAttribute[]): string {
  const shown = attributes.map((a) => ({
    name: a.name,
    type: attributeTypeText(a.type),
    ground_truth: a.groundTruth,
  }));
  return JSON.stringify({ attributes: shown }, null, 2);
}

/** Phase 2: one judge instruction per attribute of the spec. */
export function descriptionMessages(
  question: TemplateQuestion,
  attributes: readonly GroundTruthAttribute[],
): Message[] {
  return [
    systemMessage(DESCRIPTIONS),
    userMessage(
      [
        block("Question", "question", question.question),
        block("Template specification", "specification", specJson(attributes)),
        "Write the judge's instruction for every attribute and reply with the JSON object.",
      ].join("\n\n"),
    ),
  ];
}
