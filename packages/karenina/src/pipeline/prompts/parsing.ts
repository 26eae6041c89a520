import type { JsonSchema } from "../../templates/index.js";
import { assemblePrompt, type JudgePrompt, type PromptSettings } from "./assembly.js";
import { bulletList, taggedBlock } from "./tagged.js";

/**
 * What the standard parsing call is built from (spec 04 §7.3). The builder receives the template's **judge
 * schema** (ground truth and trace fields already stripped, spec 02 §3.1) and its extraction hints — never the
 * template itself, so ground truth cannot reach the judge. The original's `KARENINA_EXPOSE_GROUND_TRUTH` debug
 * switch is deliberately not implemented.
 */
export interface ParsingPromptInput extends PromptSettings {
  judgeSchema: JsonSchema;
  /** `VerifiedField(extraction_hint=…)` values by field name. */
  extractionHints?: Readonly<Record<string, string>> | null;
  /** `include_extraction_hints` (default true). */
  includeExtractionHints?: boolean;
  question: string;
  /** The final AI message or the full trace, per `use_full_trace_for_template`. */
  response: string;
}

/** The parsing prompt, and the schema the reply is parsed against (the judge schema it was given). */
export interface ParsingPrompt extends JudgePrompt {
  schema: JsonSchema;
}

const GUIDELINES = [
  "You extract structured information from a response written by an AI model. You receive the response (its final answer, or the full trace of its work including tool calls) and a JSON schema; the description of each field in the schema says exactly what to extract for that field.",
  "",
  "Guidelines:",
  bulletList([
    "Take values from the final answer first; use earlier parts of a trace only where the final answer leaves a field open.",
    "Follow each field's description exactly, including the form of value it asks for.",
    "When the response does not give the information a field asks for and the field accepts null, use null.",
    "Do not infer, guess or complete information the response does not state.",
    "Reply with a valid JSON object only: no prose, no explanations, no code fences.",
  ]),
].join("\n");

/** The fields a schema declares, or null when it declares none (then every hint is kept). */
function schemaFields(schema: JsonSchema): Set<string> | null {
  const properties = schema.properties;
  return typeof properties === "object" && properties !== null ? new Set(Object.keys(properties)) : null;
}

function hintSection(input: ParsingPromptInput): string | null {
  if (input.includeExtractionHints === false || input.extractionHints == null) return null;
  const fields = schemaFields(input.judgeSchema);
  const hints = Object.entries(input.extractionHints).filter(
    ([field, hint]) => hint !== "" && (fields === null || fields.has(field)),
  );
  if (hints.length === 0) return null;
  return `Field extraction guidance:\n${bulletList(hints.map(([field, hint]) => `${field}: ${hint}`))}`;
}

/** The task's own system text: the guidelines, then the extraction hints (of fields the schema has). */
function taskSystem(input: Omit<ParsingPromptInput, "question" | "response">): string {
  const hints = hintSection(input as ParsingPromptInput);
  return hints === null ? GUIDELINES : `${GUIDELINES}\n\n${hints}`;
}

/**
 * The standard parsing (judge) prompt (spec 04 §7.3). System: extraction guidelines, then one guidance bullet per
 * field with an extraction hint (when hints are enabled; hints of fields the schema lacks, e.g. trace fields, are
 * left out). User: the instruction, the original question and the response in tagged blocks. Then the adapter
 * family's additions (OpenAI-compatible: the pretty-printed schema, parsing notes and a "Your JSON response:"
 * trailer) and, last in the system text, `prompt_config.parsing`.
 */
export function parsingPrompt(input: ParsingPromptInput): ParsingPrompt {
  const user = [
    "Extract the fields of the JSON schema from the response below.",
    taggedBlock("Original question", "question", input.question),
    taggedBlock("Response to parse", "response", input.response),
  ].join("\n\n");
  const prompt = assemblePrompt("parsing", { system: taskSystem(input), user }, input, {
    jsonSchema: input.judgeSchema,
  });
  return { ...prompt, schema: input.judgeSchema };
}

/**
 * The parsing system text with the adapter's system additions and `prompt_config.parsing` applied: the base
 * every template deep-judgment prompt starts from (spec 04 §9.1).
 */
export function parsingSystemText(input: Omit<ParsingPromptInput, "question" | "response">): string {
  return assemblePrompt("parsing", { system: taskSystem(input), user: "" }, input, {
    jsonSchema: input.judgeSchema,
  }).system;
}
