import type { JsonSchema } from "../../templates/index.js";
import { assemblePrompt, type JudgePrompt, type PromptSettings } from "./assembly.js";
import { readJsonObject } from "./json-reply.js";
import { bulletList, taggedBlock } from "./tagged.js";

/** What the investigation agent is shown besides the question (spec 05 §12.4). */
export type JudgeContextMode = "workspace_only" | "trace_and_workspace" | "trace_only";

/** Whether a judge-context mode shows the answering trace, and whether it shows the workspace. */
export function judgeContextShows(mode: JudgeContextMode): { trace: boolean; workspace: boolean } {
  return { trace: mode !== "workspace_only", workspace: mode !== "trace_only" };
}

/** What the tools sentence of an investigation prompt says the agent can do. */
export interface InvestigationCapabilities {
  fileTools: boolean;
  commandExecution: boolean;
}

/** The sentence of an investigation prompt saying what the agent can do (agentic parsing and agentic traits). */
export function toolsSentence(tools: InvestigationCapabilities): string {
  if (!tools.fileTools) return "You have no file tools: work from the material in the message.";
  const commands = tools.commandExecution
    ? "Do not run code or commands for this check."
    : "Command execution is not available.";
  return `You can list, read and search the files of the workspace. ${commands}`;
}

const PARSIMONY_PROTOCOL = bulletList([
  "Look only for artifacts that contain final reported results: result files, summaries, tables, final JSON, CSV, TXT or Markdown outputs.",
  "Read them and extract the values they report. Do not run scripts, notebooks or commands; do not recompute, repair or create files.",
  "Check file sizes first and read large files selectively.",
  "If a value was reported, extract it. Otherwise use JSON null: never 0, false, an empty string or an empty list as a placeholder.",
  "For a boolean equivalence field, use false only when an answer was reported and it differs.",
  'List the fields you could not answer in an "_unanswered_fields" array.',
  "Report your findings as one JSON object matching the schema below.",
]);

/** What the investigation prompt of stage 7b is built from (spec 05 §12.3 step 2). */
export interface InvestigationPromptInput extends PromptSettings {
  question: string;
  /** The judge schema: ground truth and trace fields already stripped (spec 02 §3.1). */
  judgeSchema: JsonSchema;
  mode: JudgeContextMode;
  /** The answering agent's raw trace; shown when the mode includes the trace. */
  trace: string | null;
  /** The file the trace was materialised to: named instead of the trace inline (spec 05 §12.3). */
  traceFile?: string | null;
  /** The workspace directory as the agent sees it; shown when the mode includes it and there is one. */
  workspacePath: string | null;
  tools: InvestigationCapabilities;
  /** Reasoning of a dynamic-parsing screening that escalated here (spec 05 §12.5). */
  screeningReasoning?: string | null;
}

function investigationSystem(input: InvestigationPromptInput): string {
  const shows = judgeContextShows(input.mode);
  const evidence = [
    shows.workspace ? "the artifacts in the workspace" : null,
    shows.trace ? "the trace of the answering agent" : null,
  ]
    .filter((part) => part !== null)
    .join(" and ");
  return [
    "You are a verification agent. You check independently whether an AI assistant completed a task, and what it reported.",
    toolsSentence(input.tools),
    `Your evidence is ${evidence}. If the assistant ran out of time, its results may live only in partial outputs or in its trace; do not rerun its code.`,
    "",
    "Protocol:",
    PARSIMONY_PROTOCOL,
    "",
    `JSON schema of the report:\n\`\`\`json\n${JSON.stringify(input.judgeSchema, null, 2)}\n\`\`\``,
  ].join("\n");
}

/**
 * How an investigation prompt shows the answering trace: inline in a tagged block, or — materialised — the
 * file it is in, which the judge searches and reads with its tools. Null when there is no trace.
 */
export function answeringTraceBlock(trace: string | null, traceFile: string | null): string | null {
  if (traceFile !== null) {
    return `Answering agent trace: it is in the file ${traceFile}. Search it (grep) and read the parts you need with your tools.`;
  }
  return trace === null ? null : taggedBlock("Answering agent trace", "trace", trace);
}

/**
 * The investigation prompt of the agentic parse stage (task `agentic_parsing_investigation`): the system text
 * carries the judge schema (never ground truth); the user text the question, the screening reasoning of a dynamic
 * parse that escalated, then — by judge-context mode — the answering trace (or its file) and the workspace
 * directory.
 */
export function investigationPrompt(input: InvestigationPromptInput): JudgePrompt {
  const shows = judgeContextShows(input.mode);
  const parts = [`Question: ${input.question}`];
  if (input.screeningReasoning)
    parts.push(taggedBlock("Screening reasoning", "screening", input.screeningReasoning));
  if (shows.trace) {
    const trace = answeringTraceBlock(input.trace, input.traceFile ?? null);
    if (trace !== null) parts.push(trace);
  }
  if (shows.workspace && input.workspacePath !== null)
    parts.push(`Workspace directory: ${input.workspacePath}`);
  return assemblePrompt(
    "agentic_parsing_investigation",
    { system: investigationSystem(input), user: parts.join("\n\n") },
    input,
  );
}

/** The longest investigation report handed to the extraction call (spec 05 §12.3 step 3). */
export const MAX_REPORT_CHARS = 60_000;

/**
 * A report cut to {@link MAX_REPORT_CHARS}: the first third and the tail, around a marker saying how much was
 * left out.
 */
export function truncateReport(report: string, limit = MAX_REPORT_CHARS): string {
  if (report.length <= limit) return report;
  const head = Math.floor(limit / 3);
  const marker = (omitted: number) =>
    `\n[... investigation report truncated; omitted ${omitted} characters ...]\n`;
  const tail = limit - head - marker(report.length).length;
  return `${report.slice(0, head)}${marker(report.length - head - tail)}${report.slice(report.length - tail)}`;
}

/** The `_unanswered_fields` an investigation report lists, kept to the template's own field names. */
export function unansweredFields(report: string, fieldNames: ReadonlySet<string>): Set<string> {
  const value = readJsonObject(report)?._unanswered_fields;
  if (!Array.isArray(value)) return new Set();
  return new Set(value.filter((name): name is string => typeof name === "string" && fieldNames.has(name)));
}

export interface ExtractionPromptInput extends PromptSettings {
  judgeSchema: JsonSchema;
  report: string;
}

/** The extraction prompt of the agentic parse stage (task `agentic_parsing_extraction`). */
export function agenticExtractionPrompt(input: ExtractionPromptInput): JudgePrompt {
  const system = [
    "You turn an investigation report into a JSON object matching a schema.",
    "",
    "Rules:",
    bulletList([
      'Fields the report lists in "_unanswered_fields" are null.',
      "Take values only from the report; never invent placeholder values (0, false, empty strings or lists).",
      "Use the field names of the schema exactly; reply with the JSON object only.",
    ]),
  ].join("\n");
  return assemblePrompt(
    "agentic_parsing_extraction",
    { system, user: taggedBlock("Investigation report", "report", truncateReport(input.report)) },
    input,
    { jsonSchema: input.judgeSchema },
  );
}
