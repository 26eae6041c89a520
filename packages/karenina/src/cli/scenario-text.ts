/**
 * Scenario benchmarks as the CLI prints them: a summary per scenario (`checkpoint inspect`, `scenario list`)
 * and the whole graph as text (`scenario show`). Text from the checkpoint is printed with its control
 * characters escaped.
 */
import {
  CALLABLE,
  describeEdge,
  describeOutcome,
  type ModelOverride,
  pythonSource,
  type ScenarioDefinition,
  type ScenarioNode,
  scenarioWarnings,
} from "../scenario/index.js";
import { type Palette, PLAIN, printable } from "./colour.js";

/** A scenario as `checkpoint inspect --json` and `scenario list --json` list it. */
export interface ScenarioSummary {
  name: string;
  description: string;
  entryNode: string;
  nodeCount: number;
  edgeCount: number;
  /** The outcome criteria's names, in evaluation order. */
  outcomeCriteria: string[];
  /** What the builder would refuse or warn about (a loaded scenario is not graph-checked on load). */
  warnings: string[];
}

/** The facts of one scenario, warnings of the graph check included. */
export function scenarioSummary(definition: ScenarioDefinition): ScenarioSummary {
  return {
    name: definition.name,
    description: definition.description,
    entryNode: definition.entry_node,
    nodeCount: Object.keys(definition.nodes).length,
    edgeCount: definition.edges.length,
    outcomeCriteria: definition.outcome_criteria.map((criterion) => criterion.name),
    warnings: scenarioWarnings(definition),
  };
}

/** Text from a checkpoint on one line, safe for a terminal. */
export const safe = (text: string) => printable(text).replace(/\n/g, "\\n").replace(/\t/g, "\\t");

const plural = (n: number, word: string, many = `${word}s`) => `${n} ${n === 1 ? word : many}`;

/** `text` on one line, cut to `width` characters with an ellipsis. */
export function clip(text: string, width: number): string {
  const chars = Array.from(text.replace(/\s+/g, " ").trim());
  return chars.length > width
    ? `${chars
        .slice(0, width - 1)
        .join("")
        .trimEnd()}…`
    : chars.join("");
}

/** A warning without the `Scenario '<name>': ` the library puts first (the heading names the scenario). */
const withoutPrefix = (warning: string, name: string) => {
  const prefix = `Scenario '${name}': `;
  return warning.startsWith(prefix) ? warning.slice(prefix.length) : warning;
};

/** `entry: ask · 3 nodes · 5 edges` */
export const shapeLine = (summary: ScenarioSummary) =>
  `entry: ${safe(summary.entryNode)} · ${plural(summary.nodeCount, "node")} · ${plural(summary.edgeCount, "edge")}`;

/** The warnings of a summary under a scenario heading: `graph check: ok`, or one `!` line each. */
export function warningLines(summary: ScenarioSummary, palette: Palette, indent: string): string[] {
  if (summary.warnings.length === 0) return [`${indent}graph check: ${palette.paint("ok", "pass")}`];
  return [
    `${indent}graph check: ${palette.paint(plural(summary.warnings.length, "warning"), "warn")}`,
    ...summary.warnings.map(
      (warning) => `${indent}  ${palette.paint(`! ${safe(withoutPrefix(warning, summary.name))}`, "warn")}`,
    ),
  ];
}

/**
 * One block per scenario (`checkpoint inspect`, `scenario list`): name and description, entry and counts,
 * outcome criteria, the graph check.
 */
export function scenarioBlocks(
  summaries: readonly ScenarioSummary[],
  palette: Palette,
  indent = "",
): string[] {
  const lines: string[] = [];
  for (const summary of summaries) {
    const description = summary.description ? ` — ${safe(summary.description)}` : "";
    const criteria = summary.outcomeCriteria.map(safe).join(", ") || "none";
    lines.push(
      `${indent}${palette.paint(safe(summary.name), "heading")}${description}`,
      `${indent}  ${shapeLine(summary)}`,
      `${indent}  outcome criteria: ${criteria}`,
      ...warningLines(summary, palette, `${indent}  `),
    );
  }
  return lines;
}

function modelText(model: NonNullable<ModelOverride["answering_model"]>): string {
  const target = [model.model_provider, model.model_name].filter((part) => part !== null).join("/");
  return `${model.id ?? model.model_name ?? "?"} (${target || "no model name"} via ${model.interface})`;
}

/** The lines under a node: agent, model overrides, state update, tool filter. */
function nodeDetails(node: ScenarioNode): string[] {
  const details: string[] = [];
  if (node.agent_identity !== null) details.push(`agent: ${node.agent_identity}`);
  if (node.model_override?.answering_model)
    details.push(`answering model: ${modelText(node.model_override.answering_model)}`);
  if (node.model_override?.parsing_model)
    details.push(`parsing model: ${modelText(node.model_override.parsing_model)}`);
  if (node.state_update !== undefined && node.state_update_source === null)
    details.push(`state update: ${CALLABLE}`);
  else if (node.state_update_source !== null)
    details.push(`state update: ${pythonSource(node.state_update_source)}`);
  if (node.tool_filter !== null && node.tool_filter.remove.length > 0) {
    const removed = node.tool_filter.remove.map((entry) => `${entry.server}/${entry.tool ?? "*"}`);
    details.push(`tool filter: removes ${removed.join(", ")} (saved, not applied at run time)`);
  }
  return details;
}

/**
 * The whole scenario as text: its nodes in the file's order (question text clipped, agent, model overrides,
 * state update), its edges in the order they are tried, its outcome criteria, and the graph check's warnings.
 */
export function scenarioText(definition: ScenarioDefinition, palette: Palette = PLAIN): string {
  const summary = scenarioSummary(definition);
  const heading = (text: string) => palette.paint(text, "heading");
  const lines = [`scenario: ${safe(definition.name)}`];
  if (definition.description) lines.push(`description: ${safe(definition.description)}`);
  lines.push(
    `${shapeLine(summary)} · ${plural(definition.outcome_criteria.length, "outcome criterion", "outcome criteria")}`,
  );

  lines.push("", heading("nodes:"));
  for (const [id, node] of Object.entries(definition.nodes)) {
    const entry = id === definition.entry_node ? " (entry)" : "";
    lines.push(`  ${safe(id)}${entry}: "${safe(clip(node.question.question, 70))}"`);
    for (const detail of nodeDetails(node)) lines.push(`      ${safe(detail)}`);
  }

  lines.push("", heading("edges (tried in order; the first that passes is taken):"));
  if (definition.edges.length === 0) lines.push("  none: the entry node is the only turn");
  for (const edge of definition.edges) lines.push(`  ${safe(describeEdge(edge, definition.edges))}`);

  lines.push("", heading("outcome criteria (evaluated after the run, in order):"));
  if (definition.outcome_criteria.length === 0) lines.push("  none");
  for (const criterion of definition.outcome_criteria) {
    lines.push(`  ${safe(criterion.name)}: ${safe(describeOutcome(criterion))}`);
    if (criterion.description) lines.push(`      ${palette.paint(safe(criterion.description), "dim")}`);
  }

  lines.push("", ...warningLines(summary, palette, ""));
  return lines.join("\n");
}
