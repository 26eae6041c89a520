import { describeEdgeCondition, END, type ScenarioDefinition } from "../scenario/index.js";
import { printable } from "./colour.js";
import { clip } from "./scenario-text.js";

/**
 * Label text for a quoted Mermaid label: one line, control characters escaped, and the characters Mermaid
 * reads as syntax or HTML written as its entity codes (`#quot;`).
 */
function label(text: string): string {
  return printable(text.replace(/\s+/g, " ").trim())
    .replace(/#/g, "#35;")
    .replace(/"/g, "#quot;")
    .replace(/</g, "#lt;")
    .replace(/>/g, "#gt;")
    .replace(/`/g, "#96;");
}

/**
 * A Mermaid flowchart of the scenario (for Markdown docs): a start marker into the entry node, one box per node
 * (its id over its clipped question), one arrow per edge labelled with its condition, and END. Node ids from
 * the checkpoint never reach Mermaid's syntax: boxes are `n0`, `n1`, … and every label is quoted and escaped.
 */
export function scenarioMermaid(definition: ScenarioDefinition): string {
  const lines = ["flowchart TD"];
  const ids = new Map<string, string>();
  const box = (nodeId: string, text: string) => {
    const id = `n${ids.size}`;
    ids.set(nodeId, id);
    lines.push(`  ${id}["${label(text)}"]`);
    return id;
  };
  for (const [nodeId, node] of Object.entries(definition.nodes))
    box(nodeId, `${nodeId}: ${clip(node.question.question, 40)}`);
  const idOf = (nodeId: string) => ids.get(nodeId) ?? box(nodeId, `${nodeId} (not a node)`);
  lines.push('  scenario_end(["END"])', `  scenario_start((" ")) --> ${idOf(definition.entry_node)}`);
  for (const edge of definition.edges) {
    const target = edge.target === END ? "scenario_end" : idOf(edge.target);
    const handover = edge.handover_callable !== undefined ? "<callable>" : edge.handover;
    const text = describeEdgeCondition(edge, definition.edges) + (handover ? ` (handover: ${handover})` : "");
    lines.push(`  ${idOf(edge.source)} -->|"${label(text)}"| ${target}`);
  }
  return lines.join("\n");
}
