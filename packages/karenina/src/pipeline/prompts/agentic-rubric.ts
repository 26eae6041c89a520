import { z } from "zod";
import { type StructuredSchema, zodStructuredSchema } from "../../llm/index.js";
import { type AgenticTrait, isTemplateKind, type TemplateKind } from "../../model/index.js";
import { coerceToSchema, describeProblems, type JsonSchema } from "../../templates/index.js";
import {
  answeringTraceBlock,
  type InvestigationCapabilities,
  judgeContextShows,
  toolsSentence,
  truncateReport,
} from "./agentic-parsing.js";
import { assemblePrompt, type JudgePrompt, type PromptSettings } from "./assembly.js";
import { bulletList, taggedBlock } from "./tagged.js";

/** What an agentic trait's investigation prompt is built from (spec 05 §12.6, spec 03 §9.5). */
export interface TraitInvestigationInput extends PromptSettings {
  trait: AgenticTrait;
  question: string;
  /** The answering agent's raw trace; shown when the trait's `context_mode` includes the trace. */
  trace: string | null;
  /** The file the trace was materialised to, for a trait with `materialize_trace`: named instead of the trace. */
  traceFile?: string | null;
  /** The workspace directory as the agent sees it; shown unless the mode is `trace_only`. */
  workspacePath: string | null;
  tools: InvestigationCapabilities;
}

/** What the shared investigation of several agentic traits is built from (strategy `shared`). */
export interface SharedInvestigationInput extends PromptSettings {
  traits: readonly AgenticTrait[];
  question: string;
  /** The answering trace, when any trait's mode includes it; else null. */
  trace: string | null;
  /** The file the trace was materialised to, when any trait materialises it: named instead of the trace. */
  traceFile?: string | null;
  /** The workspace directory, when any trait's mode includes it; else null. */
  workspacePath: string | null;
  tools: InvestigationCapabilities;
}

function direction(trait: AgenticTrait): string {
  if (trait.higher_is_better === null) return "";
  return trait.higher_is_better ? " (higher is better)" : " (lower is better)";
}

/** What the report must let a reader decide, by the trait's kind. */
function kindSentence(trait: AgenticTrait): string {
  if (isTemplateKind(trait.kind)) {
    return [
      "End your report with one JSON object matching this schema: no wrapper around it, and no placeholder values (use null for what you could not determine).",
      `\`\`\`json\n${JSON.stringify(trait.kind.schema, null, 2)}\n\`\`\``,
    ].join("\n");
  }
  switch (trait.kind) {
    case "boolean":
      return "Summarise your findings clearly: they will be read as a yes/no verdict on the criterion.";
    case "score":
      return `Summarise your findings clearly: they will be read as a score from ${trait.min_score} to ${trait.max_score}${direction(trait)}.`;
    case "literal":
      return `Summarise your findings clearly: they will be read as one of these classes:\n${classList(trait)}`;
  }
}

function classList(trait: AgenticTrait): string {
  return bulletList(Object.entries(trait.classes ?? {}).map(([label, meaning]) => `${label}: ${meaning}`));
}

function investigationUser(
  question: string,
  trace: string | null,
  traceFile: string | null,
  workspacePath: string | null,
): string {
  const parts = [`Question: ${question}`];
  const traceBlock = answeringTraceBlock(trace, traceFile);
  if (traceBlock !== null) parts.push(traceBlock);
  if (workspacePath !== null) parts.push(`Workspace directory: ${workspacePath}`);
  return parts.join("\n\n");
}

/**
 * The investigation prompt of an agentic trait (task `rubric_agentic_trait_investigation`): the trait's
 * description is the task; the user text has the question, then — by the trait's `context_mode` — the
 * answering trace and the workspace directory.
 */
export function traitInvestigationPrompt(input: TraitInvestigationInput): JudgePrompt {
  const { trait } = input;
  const shows = judgeContextShows(trait.context_mode);
  const system = [
    "You are an evaluation agent. You investigate the quality of an AI assistant's work and report your findings.",
    `Criterion "${trait.name}": ${trait.description}`,
    toolsSentence(input.tools),
    kindSentence(trait),
  ].join("\n\n");
  const user = investigationUser(
    input.question,
    shows.trace ? input.trace : null,
    shows.trace ? (input.traceFile ?? null) : null,
    shows.workspace ? input.workspacePath : null,
  );
  return assemblePrompt("rubric_agentic_trait_investigation", { system, user }, input);
}

/**
 * The one investigation prompt of several agentic traits (strategy `shared`): every criterion, and what the
 * report must say about each, in one session.
 */
export function sharedTraitsInvestigationPrompt(input: SharedInvestigationInput): JudgePrompt {
  const system = [
    "You are an evaluation agent. You investigate the quality of an AI assistant's work against several criteria and report your findings.",
    `Criteria:\n${bulletList(input.traits.map((trait) => `${trait.name}: ${trait.description}`))}`,
    toolsSentence(input.tools),
    "Report your findings for each criterion under its name: they will be read criterion by criterion.",
    ...input.traits.map((trait) => `For "${trait.name}": ${kindSentence(trait)}`),
  ].join("\n\n");
  const user = investigationUser(input.question, input.trace, input.traceFile ?? null, input.workspacePath);
  return assemblePrompt("rubric_agentic_trait_investigation", { system, user }, input);
}

/** The value extracted for a scalar-kind trait. */
export type ScalarTraitReply = { result: boolean } | { score: number } | { classification: string };

function scalarSchema(trait: AgenticTrait): {
  schema: StructuredSchema<ScalarTraitReply>;
  rule: string;
  example: Record<string, unknown>;
} {
  switch (trait.kind) {
    case "boolean":
      return {
        schema: zodStructuredSchema("trait_result", z.object({ result: z.boolean() })),
        rule: 'Reply {"result": true} when the report finds the criterion met, {"result": false} otherwise.',
        example: { result: true },
      };
    case "score":
      return {
        schema: zodStructuredSchema("trait_score", z.object({ score: z.int() })),
        rule: `Reply {"score": N}, N the integer from ${trait.min_score} to ${trait.max_score}${direction(trait)} the report supports.`,
        example: { score: trait.min_score ?? 1 },
      };
    default: {
      const labels = Object.keys(trait.classes ?? {});
      return {
        schema: zodStructuredSchema("trait_classification", z.object({ classification: z.string() })),
        rule: `Reply {"classification": "<label>"}, the label exactly as written, one of:\n${classList(trait)}`,
        example: { classification: labels[0] ?? "" },
      };
    }
  }
}

/** The extraction call of an agentic trait: its prompt and the schema its reply is checked against. */
export interface TraitExtraction<T> {
  prompt: JudgePrompt;
  schema: StructuredSchema<T>;
}

function extractionText(trait: AgenticTrait, rule: string, report: string) {
  return {
    system: [
      "You read an evaluation report and extract its verdict on one criterion as a JSON object.",
      "",
      "Rules:",
      bulletList([
        "Take the verdict only from the report; never invent one.",
        rule,
        "Reply with the JSON object only.",
      ]),
    ].join("\n"),
    user: `Criterion "${trait.name}": ${trait.description}\n\n${taggedBlock("Evaluation report", "report", truncateReport(report))}`,
  };
}

/**
 * The extraction of a boolean, score or literal trait (task `rubric_agentic_trait_extraction`):
 * `{"result": bool}`, `{"score": int}` or `{"classification": label}` from the report.
 */
export function scalarTraitExtraction(
  trait: AgenticTrait,
  report: string,
  settings: PromptSettings = {},
): TraitExtraction<ScalarTraitReply> {
  const { schema, rule, example } = scalarSchema(trait);
  const text = extractionText(trait, rule, report);
  return {
    prompt: assemblePrompt("rubric_agentic_trait_extraction", text, settings, { example }),
    schema,
  };
}

/**
 * A template-kind trait's class as a structured schema: the trait's JSON Schema, values read leniently (as
 * Pydantic does) and only the class's own fields kept.
 */
export function templateTraitSchema(
  name: string,
  kind: TemplateKind,
): StructuredSchema<Record<string, unknown>> {
  const jsonSchema = kind.schema as JsonSchema;
  const properties = Object.keys((jsonSchema.properties ?? {}) as object);
  const defs = (jsonSchema.$defs ?? {}) as Record<string, JsonSchema>;
  return {
    name: name.replace(/[^A-Za-z0-9_-]/g, "_") || "trait",
    jsonSchema,
    validate(value) {
      if (value === null || typeof value !== "object" || Array.isArray(value)) {
        return { success: false, error: "expected a JSON object of field values" };
      }
      const coerced = coerceToSchema(jsonSchema, value, "", defs);
      if (!coerced.ok) return { success: false, error: describeProblems(coerced.problems) };
      const fields = coerced.value as Record<string, unknown>;
      return {
        success: true,
        value: Object.fromEntries(properties.map((name) => [name, fields[name] ?? null])),
      };
    },
  };
}

/** The extraction of a template-kind trait by the parser, when the report's own JSON did not fit. */
export function templateTraitExtraction(
  trait: AgenticTrait,
  kind: TemplateKind,
  report: string,
  settings: PromptSettings = {},
): TraitExtraction<Record<string, unknown>> {
  const rule = "Fill every field of the schema from the report; null where the report does not determine it.";
  const schema = templateTraitSchema(trait.name, kind);
  return {
    prompt: assemblePrompt("rubric_agentic_trait_extraction", extractionText(trait, rule, report), settings, {
      jsonSchema: schema.jsonSchema,
    }),
    schema,
  };
}
