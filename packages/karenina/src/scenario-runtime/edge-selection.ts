import { isUnconditional, type ScenarioEdge, type StateCheck } from "../scenario/index.js";
import { pyTruthy } from "../templates/index.js";
import { ScenarioRuntimeError } from "./errors.js";
import { checkValue, describeError } from "./primitive-check.js";
import type { ScenarioState } from "./runtime-types.js";
import type { ScenarioCallables } from "./scenario-callables.js";
import { resolveStatePath } from "./state-paths.js";

/** What edge selection needs besides the edges and the state. */
export interface EdgeSelectionOptions {
  /** Runs `condition_source` strings; null when the scenario has none. */
  readonly callables: ScenarioCallables | null;
  /** Receives one message per condition that raised (the edge then does not match). */
  warn(message: string): void;
}

/** The edge followed, or nulls when none applies (the run then ends `completed`). */
export interface NextNode {
  readonly target: string | null;
  readonly edge: ScenarioEdge | null;
}

const edgeName = (edge: ScenarioEdge) => `edge '${edge.source}' -> '${edge.target}'`;

/**
 * Picks the edge to follow from the current node's outgoing edges, in definition order (spec 08 §4.5): the first
 * conditional edge that matches wins; otherwise the first unconditional edge (later ones are ignored); with
 * neither, `{ target: null, edge: null }`. A TypeScript `condition_callable` takes precedence over
 * `condition_source`, which takes precedence over the declarative `condition` (a list means AND, checked in
 * order, stopping at the first failure). A callable or a StateCheck that throws counts as no match and is
 * reported through `warn` (quirk Q7, fixed: the original lets a StateCheck exception abort the combo).
 * @throws ScenarioRuntimeError an edge has a `condition_source` and no `callables` runner was given.
 */
export async function resolveNextNode(
  edges: readonly ScenarioEdge[],
  state: ScenarioState,
  options: EdgeSelectionOptions,
): Promise<NextNode> {
  let fallback: ScenarioEdge | null = null;
  for (const edge of edges) {
    if (isUnconditional(edge)) {
      fallback ??= edge;
      continue;
    }
    if (await edgeMatches(edge, state, options)) return { target: edge.target, edge };
  }
  return { target: fallback?.target ?? null, edge: fallback };
}

async function edgeMatches(
  edge: ScenarioEdge,
  state: ScenarioState,
  options: EdgeSelectionOptions,
): Promise<boolean> {
  if (edge.condition_callable !== undefined || edge.condition_source !== null) {
    return await callableMatches(edge, state, options);
  }
  const checks =
    edge.condition === null ? [] : Array.isArray(edge.condition) ? edge.condition : [edge.condition];
  for (const check of checks) {
    if (!stateCheckPasses(check, edge, state, options)) return false;
  }
  return true;
}

async function callableMatches(
  edge: ScenarioEdge,
  state: ScenarioState,
  options: EdgeSelectionOptions,
): Promise<boolean> {
  const source = edge.condition_source;
  if (edge.condition_callable === undefined && options.callables === null) {
    throw new ScenarioRuntimeError(
      `The condition of ${edgeName(edge)} is Python source, and no runner for scenario callables was given: ` +
        "pass a SandboxScenarioCallables when the scenario has callable sources",
      null,
      edge.source,
    );
  }
  try {
    const value =
      edge.condition_callable !== undefined
        ? await edge.condition_callable(state)
        : await options.callables?.condition(source as string, state);
    return pyTruthy(value);
  } catch (error) {
    options.warn(
      `The condition of ${edgeName(edge)} raised ${describeError(error)}; the edge does not match`,
    );
    return false;
  }
}

function stateCheckPasses(
  check: StateCheck,
  edge: ScenarioEdge,
  state: ScenarioState,
  options: EdgeSelectionOptions,
): boolean {
  try {
    return checkValue(check.verify_with, resolveStatePath(check.field, state), check.expected);
  } catch (error) {
    options.warn(
      `The state check on field '${check.field}' of ${edgeName(edge)} raised ${describeError(error)}; ` +
        "the edge does not match",
    );
    return false;
  }
}
