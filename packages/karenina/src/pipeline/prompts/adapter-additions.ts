import type { JsonSchema } from "../../templates/index.js";
import type { PromptTask } from "./prompt-task.js";

/**
 * Adapters grouped by the prompt text they add (spec 04 §7.3, 05 §6): the OpenAI-compatible family
 * (`langchain`, `openrouter`, `openai_endpoint`), `claude_tool`, the agent SDKs (`claude_agent_sdk`,
 * `langchain_deep_agents`, structure enforced natively) and everything else (`manual`, unknown: nothing).
 */
export type PromptFamily = "openai_compatible" | "claude_tool" | "agent_sdk" | "none";

const FAMILIES: Readonly<Record<string, PromptFamily>> = {
  langchain: "openai_compatible",
  openrouter: "openai_compatible",
  openai_endpoint: "openai_compatible",
  claude_tool: "claude_tool",
  claude_agent_sdk: "agent_sdk",
  langchain_deep_agents: "agent_sdk",
};

/** The prompt family of a model's `interface`. */
export function promptFamily(interfaceName: string | null | undefined): PromptFamily {
  return (interfaceName == null ? undefined : FAMILIES[interfaceName]) ?? "none";
}

/** Text an adapter appends to the task's system and user text, each after a blank line. */
export interface PromptAdditions {
  system?: string;
  user?: string;
}

/** What a task tells the adapter about its reply (the original's `instruction_context`). */
export interface InstructionContext {
  /** JSON Schema of the reply, shown as a pretty-printed block. */
  jsonSchema?: JsonSchema;
  /** A reply of the expected shape, for a one-line format hint. */
  example?: unknown;
  /** Task-specific notes listed before the reply trailer. */
  parsingNotes?: readonly string[];
}

const schemaBlocks = new WeakMap<JsonSchema, string>();

/** The JSON Schema as a 2-space-indented block (rendered once per schema object: templates reuse theirs). */
export function schemaBlock(schema: JsonSchema): string {
  let block = schemaBlocks.get(schema);
  if (block === undefined) {
    block = `JSON schema of the reply:\n\`\`\`json\n${JSON.stringify(schema, null, 2)}\n\`\`\``;
    schemaBlocks.set(schema, block);
  }
  return block;
}

const bullets = (lines: readonly string[]) => lines.map((line) => `- ${line}`).join("\n");

const PARSING_NOTES = [
  "Use the field names of the schema exactly as written.",
  "Use null for a field whose information the response does not give.",
  "Give booleans as true or false and numbers as numbers, not as strings.",
];

const REPLY_TRAILER = "Your JSON response:";

const CLAUDE_EXTRACTION_RULES = [
  "Extraction rules:",
  bullets([
    "Extract only what the response states; never infer or add information.",
    "Use null when the information for a field is absent.",
    "Use the schema's field names and types exactly.",
    "A field typed as a single string gets one string; a field typed as a list gets a list, even of one item.",
    "Booleans are JSON true or false, not strings.",
  ]),
  "",
  "Output only the JSON object, nothing before or after it.",
].join("\n");

const CLAUDE_REQUIREMENTS = [
  "Critical requirements:",
  bullets([
    "Every field of the schema appears in the reply, with null where the response gives nothing.",
    "No field outside the schema.",
    "Valid JSON only: no comments, no code fences, no trailing commas.",
  ]),
].join("\n");

const BEST_INTERPRETATION =
  "Where the response is ambiguous, fill the fields with your best interpretation of it.";

const JSON_ONLY = "Reply with one JSON object only: no prose before or after it and no code fences.";

function parsingAdditions(family: PromptFamily, context: InstructionContext): PromptAdditions {
  const schema = context.jsonSchema === undefined ? [] : [schemaBlock(context.jsonSchema)];
  switch (family) {
    case "openai_compatible":
      return { user: [...schema, `Notes:\n${bullets(PARSING_NOTES)}`, REPLY_TRAILER].join("\n\n") };
    case "claude_tool":
      return { system: CLAUDE_EXTRACTION_RULES, user: [...schema, CLAUDE_REQUIREMENTS].join("\n\n") };
    case "agent_sdk":
      return { system: BEST_INTERPRETATION };
    case "none":
      return {};
  }
}

function deepJudgmentAdditions(context: InstructionContext): PromptAdditions {
  const parts = context.jsonSchema === undefined ? [] : [schemaBlock(context.jsonSchema)];
  if (context.parsingNotes !== undefined && context.parsingNotes.length > 0) {
    parts.push(`Notes:\n${bullets(context.parsingNotes)}`);
  }
  parts.push(REPLY_TRAILER);
  return { system: JSON_ONLY, user: parts.join("\n\n") };
}

/**
 * What an adapter family appends to a task's prompt (spec 04 §7.1, 05 §5.1), ours in wording:
 * - `parsing`: the OpenAI-compatible family adds the pretty-printed schema, short parsing notes and a
 *   "Your JSON response:" trailer to the user text; `claude_tool` adds extraction rules and a JSON-only directive
 *   to the system text and the schema with critical requirements to the user text; the agent SDKs add a
 *   best-interpretation directive.
 * - deep-judgment tasks (`dj_*`), OpenAI-compatible family: a JSON-only directive (system) and the schema (when
 *   given), notes and trailer (user).
 * - any other task with an `example`, OpenAI-compatible family: a one-line format hint (user).
 * Other families rely on native structured output and add nothing outside `parsing`.
 */
export function adapterAdditions(
  family: PromptFamily,
  task: PromptTask,
  context: InstructionContext = {},
): PromptAdditions {
  if (task === "parsing") return parsingAdditions(family, context);
  if (family !== "openai_compatible") return {};
  if (task.startsWith("dj_")) return deepJudgmentAdditions(context);
  if (context.example !== undefined) {
    return {
      user: `Respond with only a JSON object of this form, with no other text: ${JSON.stringify(context.example)}`,
    };
  }
  return {};
}
