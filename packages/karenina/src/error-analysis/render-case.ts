/**
 * The markdown of one case file (spec 08 §10.4): frontmatter, then the question, template, response, trace,
 * parsed answer, field results and failure of a row; a scenario case holds these per turn.
 */
import { deserializeMessages } from "../llm/index.js";
import { pyRepr } from "../python-repr/index.js";
import { displayString, type VerificationResult } from "../results/index.js";
import {
  formatTranscript,
  formatTurnsAsXml,
  groupEntriesIntoTurns,
  parseTranscriptEntries,
  type TaggedMessage,
} from "../scenario-runtime/index.js";
import type { ScenarioExecution } from "./executions.js";

/** Every character outside `[A-Za-z0-9_-]` as `_`. */
export const safeName = (text: string) => text.replace(/[^A-Za-z0-9_-]/g, "_");

/** What rendering needs besides the row: templates, where to offload long trace chunks, and the link depth. */
export interface RenderContext {
  /** Template source by question id (benchmark questions, and scenario node questions by their URN). */
  templates: ReadonlyMap<string, string>;
  /** `<out>/case_assets/<case stem>/traces/artifacts` (absolute). */
  artifactsDir: string;
  threshold: number;
  /** From the case file to the output directory: `../` (passes) or `../../` (failures/<category>). */
  up: string;
}

const sortKeys = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === "object")
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
    );
  return value;
};

/** Sorted, indent-2 JSON (non-ASCII kept). */
export const sortedJson = (value: unknown, indent = 2) => JSON.stringify(sortKeys(value), null, indent);

/** A YAML scalar or flow collection: plain when unambiguous, else JSON (YAML 1.2 reads JSON). */
function yamlValue(value: unknown): string {
  if (typeof value === "string")
    return /^[A-Za-z_][A-Za-z0-9_./:@ -]*$/.test(value) &&
      !/^(true|false|null|yes|no|on|off|~)$/i.test(value) &&
      !value.endsWith(" ") &&
      !value.includes(": ")
      ? value
      : JSON.stringify(value);
  if (value === undefined) return "null";
  return JSON.stringify(sortKeys(value));
}

/** `---`, the keys sorted one per line, `---`. */
export function frontmatter(fields: Record<string, unknown>): string {
  const lines = Object.keys(fields)
    .sort()
    .map((key) => `${key}: ${yamlValue(fields[key])}`);
  return ["---", ...lines, "---"].join("\n");
}

/** Every trait score of a row: LLM, regex, callable, metric and agentic traits. */
export function rubricScores(row: VerificationResult): Record<string, unknown> {
  const rubric = row.rubric;
  if (rubric === null) return {};
  return {
    ...(rubric.llm_trait_scores ?? {}),
    ...(rubric.regex_trait_scores ?? {}),
    ...(rubric.callable_trait_scores ?? {}),
    ...(rubric.metric_trait_scores ?? {}),
    ...(rubric.agentic_trait_scores ?? {}),
  };
}

function questionSection(row: VerificationResult): string {
  const { metadata } = row;
  const lines = ["# Question", "", metadata.question_text, ""];
  if (metadata.keywords && metadata.keywords.length > 0)
    lines.push(`Keywords: ${metadata.keywords.join(", ")}`, "");
  if (metadata.raw_answer !== null) lines.push("Expected answer:", "", metadata.raw_answer, "");
  return lines.join("\n");
}

/** The link to a question's template file, from the case file. */
export const templateFile = (questionId: string) => `benchmark/templates/q_${safeName(questionId)}.py`;

function templateSection(row: VerificationResult, context: RenderContext): string {
  const id = row.metadata.question_id;
  const source = context.templates.get(id);
  if (source === undefined)
    return ["# Template", "", "_No template source for this question._", ""].join("\n");
  const link = `${context.up}${templateFile(id)}`;
  const lines = source.replace(/\n$/, "").split("\n");
  const shown =
    lines.length <= 100
      ? ["```python", ...lines, "```"]
      : ["```python", ...lines.slice(0, 20), "```", "", `_Excerpt: first 20 lines of ${lines.length}._`];
  return ["# Template", "", `Source: [${link}](${link})`, "", ...shown, ""].join("\n");
}

/** The stored trace as tagged XML turns (spec 08 §4.10.1, §4.10.4), long bodies offloaded; null when empty. */
async function renderedTrace(row: VerificationResult, context: RenderContext): Promise<string | null> {
  const records = row.template?.trace_messages ?? [];
  if (records.length === 0) return null;
  let messages: ReturnType<typeof deserializeMessages>;
  try {
    messages = deserializeMessages(records);
  } catch {
    return null;
  }
  const answering = displayString(row.metadata.answering);
  const log: TaggedMessage[] = messages.map((message) => ({
    message,
    agent_id: message.role === "user" ? "__user__" : answering,
  }));
  const transcript = formatTranscript(log);
  if (transcript === "") return null;
  const turns = groupEntriesIntoTurns(parseTranscriptEntries(transcript));
  return (await formatTurnsAsXml(turns, context.artifactsDir, context.threshold)).replace(/\n+$/, "");
}

async function responseAndTraceSections(row: VerificationResult, context: RenderContext): Promise<string> {
  const trace = await renderedTrace(row, context);
  const sections: string[] = [];
  if ((row.template?.trace_messages ?? []).length === 0)
    sections.push(["# LLM Response", "", row.template?.raw_llm_response ?? "", ""].join("\n"));
  sections.push(
    trace === null
      ? ["# Trace", "", "_No trace captured for this case._", ""].join("\n")
      : ["# Trace", "", "```xml", trace, "```", ""].join("\n"),
  );
  return sections.join("\n");
}

function parsedSections(row: VerificationResult): string {
  const parsed = row.template?.parsed_llm_response ?? null;
  const fields = row.template?.field_results ?? null;
  const fieldLines =
    fields === null || Object.keys(fields).length === 0
      ? ["_No field results._"]
      : Object.entries(fields).map(([name, ok]) => `- \`${name}\`: ${ok === true ? "pass" : "fail"}`);
  return [
    ["# Parsed Answer", "", "```json", sortedJson(parsed), "```", ""].join("\n"),
    ["# Field Results", "", ...fieldLines, ""].join("\n"),
  ].join("\n");
}

function failureSection(row: VerificationResult): string | null {
  const failure = row.metadata.failure;
  if (failure === null) return null;
  const lines = [
    "# Failure",
    "",
    `- Category: \`${failure.category}\``,
    `- Group: \`${failure.group}\``,
    `- Stage: \`${failure.stage}\``,
    `- Reason: ${failure.reason}`,
  ];
  if (failure.details !== null && Object.keys(failure.details).length > 0)
    lines.push(`- Details: \`${sortedJson(failure.details, 0)}\``);
  return `${lines.join("\n")}\n`;
}

/** The sections of one row (a QA case, or one turn of a scenario case). */
export async function rowSections(row: VerificationResult, context: RenderContext): Promise<string> {
  const parts = [
    questionSection(row),
    templateSection(row, context),
    await responseAndTraceSections(row, context),
    parsedSections(row),
    failureSection(row),
  ];
  return parts.filter((part): part is string => part !== null).join("\n");
}

/** The frontmatter of a QA case. */
export function qaFrontmatter(row: VerificationResult, id: string): Record<string, unknown> {
  const { metadata } = row;
  const failure = metadata.failure;
  return {
    id,
    outcome: failure === null ? "pass" : "failure",
    question_id: metadata.question_id,
    replicate: metadata.replicate,
    model: displayString(metadata.answering),
    parsing_model: displayString(metadata.parsing),
    category: failure?.category ?? null,
    group: failure?.group ?? null,
    stage: failure?.stage ?? null,
    rubric_scores: rubricScores(row),
  };
}

/** The first turn of an execution that has a failure (content failures included), or undefined. */
export const firstFailingTurn = (execution: ScenarioExecution) =>
  execution.turns.find((row) => row.metadata.failure !== null);

/** Frontmatter and body of a scenario case. */
export async function scenarioCase(
  execution: ScenarioExecution,
  id: string,
  run: number,
  context: RenderContext,
): Promise<{ fields: Record<string, unknown>; body: string }> {
  const { record, turns } = execution;
  const failed = firstFailingTurn(execution);
  const failure = failed?.metadata.failure ?? null;
  const first = turns[0];
  const fields = {
    id,
    outcome: failed === undefined ? "pass" : "failure",
    scenario_id: record.scenario_id,
    replicate: record.replicate,
    model: first === undefined ? null : displayString(first.metadata.answering),
    parsing_model: first === undefined ? null : displayString(first.metadata.parsing),
    category: failure?.category ?? null,
    group: failure?.group ?? null,
    stage: failure?.stage ?? null,
    path: record.path,
    turn_count: record.turn_count,
    failed_turn: failed?.metadata.scenario_turn ?? null,
    outcome_results: record.outcome_results,
  };
  const head = [`# Scenario: ${record.scenario_id} (run ${run})`, "", `Path: ${record.path.join(" -> ")}`];
  if (failed !== undefined)
    head.push(
      `Failed at turn ${failed.metadata.scenario_turn ?? 0} (\`${failed.metadata.scenario_node ?? ""}\`).`,
    );
  const parts = [`${head.join("\n")}\n`];
  for (const turn of turns) {
    const mark = turn.metadata.failure === null ? "" : " (FAILED)";
    parts.push(`## Turn ${turn.metadata.scenario_turn ?? 0} ${turn.metadata.scenario_node ?? ""}${mark}\n`);
    parts.push(await rowSections(turn, context));
  }
  const outcomes = Object.entries(record.outcome_results).map(
    ([name, value]) => `- \`${name}\`: ${pyRepr(value)}`,
  );
  parts.push(
    ["# Outcomes", "", ...(outcomes.length === 0 ? ["_No outcome recorded._"] : outcomes), ""].join("\n"),
  );
  return { fields, body: parts.join("\n") };
}
