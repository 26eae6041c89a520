import { z } from "zod";
import {
  CALLABLE,
  describeEdgeCondition,
  describeOutcome,
  END,
  type ScenarioDefinition,
  type ScenarioEdge,
} from "../../scenario/index.js";

/** The id a graph view gives the end of a conversation (a scenario's `__end__`). */
export const GRAPH_END = "END";

/** An edge as the web app draws it: its ends, and its condition and handover in words. */
export const ScenarioGraphEdgeSchema = z.object({
  source: z.string(),
  /** A node id, or {@link GRAPH_END}. */
  target: z.string(),
  /** `verify_result == True`, `otherwise`, `always`, `python: …` (as `karenina scenario show` words it). */
  condition: z.string(),
  /** The handover mode when the edge passes the conversation on, else null. */
  handover: z.string().nullable(),
});

/**
 * One scenario's graph in a plain shape (spec 08 §2): nodes in the file's order with their question text, the
 * edges with their conditions in words, the entry node and the outcome criteria described.
 */
export const ScenarioGraphViewSchema = z
  .object({
    scenario_id: z.string(),
    description: z.string(),
    entry_node: z.string(),
    nodes: z.array(z.object({ id: z.string(), question: z.string(), agent_identity: z.string().nullable() })),
    edges: z.array(ScenarioGraphEdgeSchema),
    outcomes: z.array(z.object({ name: z.string(), description: z.string(), check: z.string() })),
  })
  .meta({ id: "ScenarioGraphView" });
export type ScenarioGraphView = z.infer<typeof ScenarioGraphViewSchema>;

function edgeView(edge: ScenarioEdge, edges: readonly ScenarioEdge[]) {
  return {
    source: edge.source,
    target: edge.target === END ? GRAPH_END : edge.target,
    condition: describeEdgeCondition(edge, edges),
    handover: edge.handover_callable !== undefined ? CALLABLE : edge.handover,
  };
}

/** The plain graph of a scenario, for drawing. */
export function scenarioGraphView(scenario: ScenarioDefinition): ScenarioGraphView {
  return {
    scenario_id: scenario.name,
    description: scenario.description,
    entry_node: scenario.entry_node,
    nodes: Object.entries(scenario.nodes).map(([id, node]) => ({
      id,
      question: node.question.question,
      agent_identity: node.agent_identity,
    })),
    edges: scenario.edges.map((edge) => edgeView(edge, scenario.edges)),
    outcomes: scenario.outcome_criteria.map((criterion) => ({
      name: criterion.name,
      description: criterion.description,
      check: describeOutcome(criterion),
    })),
  };
}
