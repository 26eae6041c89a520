import { pyRepr } from "../templates/index.js";
import { ScenarioError } from "./errors.js";
import {
  END,
  HANDOVER_STRATEGIES,
  isUnconditional,
  type ScenarioDefinition,
  type ScenarioEdge,
  type ScenarioNode,
  USER_AGENT_ID,
} from "./scenario-schema.js";

/** What the graph checks look at. */
export interface ScenarioGraph {
  nodes: Readonly<Record<string, ScenarioNode>>;
  edges: readonly ScenarioEdge[];
  entry_node: string | null;
}

const known = (nodes: object) => pyRepr(Object.keys(nodes).sort());

/**
 * The original's graph validation (`validate_scenario_graph`, spec 08 §2.8), entry checks first. Throws the
 * first failure with the original's message; returns the warnings (a node with several unconditional edges:
 * only the first is ever taken, quirk Q41).
 * @throws {ScenarioError} for a missing or unknown entry, an edge to or from an unknown node, nodes the entry
 *   cannot reach, or a node whose edges are all conditional.
 */
export function checkScenarioGraph(graph: ScenarioGraph, scenario?: string): string[] {
  const fail = (problem: string): never => {
    throw new ScenarioError(problem, { scenario });
  };
  const { nodes, edges, entry_node: entry } = graph;
  const isNode = (id: string) => Object.hasOwn(nodes, id);
  if (entry === null) fail("No entry node set. Call setEntry() before validate().");
  const start = entry as string;
  if (!isNode(start)) fail(`Entry node '${start}' is not a known node. Known nodes: ${known(nodes)}`);

  for (const edge of edges) {
    if (!isNode(edge.source))
      fail(`Edge source '${edge.source}' is not a known node. Known nodes: ${known(nodes)}`);
    if (edge.target !== END && !isNode(edge.target)) {
      fail(`Edge target '${edge.target}' is not a known node or END. Known nodes: ${known(nodes)}`);
    }
  }

  const orphans = unreachable(nodes, edges, start);
  if (orphans.length > 0) fail(`Orphan nodes not reachable from entry '${start}': ${pyRepr(orphans)}`);

  const warnings: string[] = [];
  for (const [source, outgoing] of edgesBySource(edges)) {
    const fallbacks = outgoing.filter(isUnconditional);
    if (fallbacks.length === 0) {
      fail(
        `Node '${source}' has conditional edges but no unconditional fallback. ` +
          "Add an edge without a condition (when=None) so that the run always has a next step.",
      );
    }
    if (fallbacks.length > 1) {
      const targets = pyRepr(fallbacks.map((edge) => edge.target));
      warnings.push(
        `Node '${source}' has ${fallbacks.length} unconditional edges (targets: ${targets}). ` +
          "Only the first will be used; the others are unreachable.",
      );
    }
  }
  return warnings;
}

/** Node ids the entry cannot reach over edges (conditions ignored), sorted. */
function unreachable(
  nodes: Readonly<Record<string, ScenarioNode>>,
  edges: readonly ScenarioEdge[],
  entry: string,
) {
  const seen = new Set([entry]);
  const queue = [entry];
  while (queue.length > 0) {
    const at = queue.shift() as string;
    for (const edge of edges) {
      if (edge.source === at && edge.target !== END && !seen.has(edge.target)) {
        seen.add(edge.target);
        queue.push(edge.target);
      }
    }
  }
  return Object.keys(nodes)
    .filter((id) => !seen.has(id))
    .sort();
}

/** Edges grouped by source, sources in order of first appearance. */
function edgesBySource(edges: readonly ScenarioEdge[]): Map<string, ScenarioEdge[]> {
  const groups = new Map<string, ScenarioEdge[]>();
  for (const edge of edges) {
    const group = groups.get(edge.source);
    if (group) group.push(edge);
    else groups.set(edge.source, [edge]);
  }
  return groups;
}

/**
 * What the builder would refuse in a definition that did not come from it (a loaded checkpoint, a direct
 * construction), as warnings: the original accepts such definitions without a word (quirk Q21), so do we,
 * but say what will go wrong. Empty for a definition the builder validated.
 */
export function scenarioWarnings(definition: ScenarioDefinition): string[] {
  const warnings: string[] = [];
  const prefix = `Scenario '${definition.name}': `;
  try {
    warnings.push(...checkScenarioGraph(definition, definition.name).map((w) => prefix + w));
  } catch (error) {
    if (!(error instanceof ScenarioError)) throw error;
    warnings.push(prefix + error.problem);
  }
  for (const [id, node] of Object.entries(definition.nodes)) {
    if (node.agent_identity === USER_AGENT_ID) {
      warnings.push(`${prefix}node '${id}' uses the reserved agent identity '${USER_AGENT_ID}'`);
    }
    if (node.node_id !== id)
      warnings.push(`${prefix}node '${id}' says its id is '${node.node_id}'; '${id}' is used`);
  }
  if (Object.hasOwn(definition.nodes, END))
    warnings.push(`${prefix}a node is named '${END}', which edges read as END`);
  for (const edge of definition.edges) {
    if (edge.handover !== null && !(HANDOVER_STRATEGIES as readonly string[]).includes(edge.handover)) {
      warnings.push(
        `${prefix}edge '${edge.source}' → '${edge.target}' has the unknown handover strategy '${edge.handover}' ` +
          `(known: ${pyRepr([...HANDOVER_STRATEGIES].sort())})`,
      );
    }
  }
  return warnings;
}
