/**
 * One-line readable descriptions of a scenario's edge conditions and outcome checks (spec 08 §2.5–2.7, §4.5,
 * §4.14), for `karenina scenario show`, `checkpoint inspect` and the server's scenario graphs. They say what
 * the runtime does: a Python source wins over a declarative condition, a list of checks is an AND, an
 * aggregation inside a composition counts as false.
 */

import {
  createPrimitive,
  floatRepr,
  type Primitive,
  primitiveFloatParameters,
  pyRepr,
} from "../templates/index.js";
import {
  END,
  isUnconditional,
  type NodeFilter,
  type OutcomeNode,
  type ScenarioEdge,
  type ScenarioOutcomeCriterion,
  type Scope,
  type StateCheck,
} from "./scenario-schema.js";

/** How a TypeScript function (run in process, never saved) is shown. */
export const CALLABLE = "<callable>";

/** One-line form of whitespace-laden text (a Python source may span lines). */
const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();

/** A Python source as shown: `python: <source>` on one line. */
export const pythonSource = (source: string) => `python: ${oneLine(source)}`;

/** A value as Python prints it (`True`, `'Canberra'`, `None`), or a JS rendering when it is not JSON-like. */
function valueText(value: unknown): string {
  try {
    return pyRepr(value ?? null);
  } catch {
    return String(value);
  }
}

/** A parameter value: a Python float where the original declares one (`2.0`), else its repr. */
function paramText(primitive: Primitive, key: string, value: unknown): string {
  if (typeof value === "number" && primitiveFloatParameters(primitive.type).has(key)) return floatRepr(value);
  return valueText(value);
}

/** The parameters that differ from the primitive's defaults (all of them when it has required ones). */
function notDefaultParams(primitive: Primitive): [string, unknown][] {
  let defaults: Readonly<Record<string, unknown>> = {};
  try {
    defaults = createPrimitive(primitive.type).params;
  } catch {
    // A primitive with required parameters (NumericTolerance's tolerance): every parameter is news.
  }
  return Object.entries(primitive.params).filter(
    ([key, value]) =>
      !Object.hasOwn(defaults, key) || JSON.stringify(defaults[key]) !== JSON.stringify(value),
  );
}

/** `field <op> bound` for a NumericRange, which ignores the expected value. */
function rangeText(field: string, primitive: Primitive): string {
  const { min, max, exclusive_min, exclusive_max } = primitive.params as {
    min: number | null;
    max: number | null;
    exclusive_min: boolean;
    exclusive_max: boolean;
  };
  const low = min === null ? "" : `${floatRepr(min)} ${exclusive_min ? "<" : "<="} `;
  const high = max === null ? "" : ` ${exclusive_max ? "<" : "<="} ${floatRepr(max)}`;
  if (min !== null && max === null) return `${field} ${exclusive_min ? ">" : ">="} ${floatRepr(min)}`;
  if (min === null && max === null) return `${field} NumericRange (no bounds)`;
  return `${low}${field}${high}`;
}

/**
 * A check `verify_with.check(value of field, expected)` in one line: `verify_result == True` (BooleanMatch,
 * NumericExact), `node_visits.push < 2.0` (NumericRange), else `field Type(non-default params) expected`.
 * For instance `status ExactMatch 'completed'`.
 */
export function describeCheck(field: string, primitive: Primitive, expected: unknown): string {
  if (primitive.type === "BooleanMatch" || primitive.type === "NumericExact")
    return `${field} == ${valueText(expected)}`;
  if (primitive.type === "NumericRange") return rangeText(field, primitive);
  const params = notDefaultParams(primitive);
  const args =
    params.length === 0 ? "" : `(${params.map(([k, v]) => `${k}=${paramText(primitive, k, v)}`).join(", ")})`;
  return `${field} ${primitive.type}${args} ${valueText(expected)}`;
}

const stateCheckText = (check: StateCheck) => describeCheck(check.field, check.verify_with, check.expected);

/**
 * What decides whether an edge is taken, as §4.5 reads it: a TypeScript function (`<callable>`) or a Python
 * source (`python: …`) first; else the declarative checks (a list is an AND); else `always`, or `otherwise`
 * when the source node has conditional edges (the fallback); `never taken` for an unconditional edge after
 * the first of its node.
 */
export function describeEdgeCondition(edge: ScenarioEdge, edges: readonly ScenarioEdge[]): string {
  if (edge.condition_callable !== undefined) return CALLABLE;
  if (edge.condition_source !== null) return pythonSource(edge.condition_source);
  if (edge.condition !== null) {
    const checks = Array.isArray(edge.condition) ? edge.condition : [edge.condition as StateCheck];
    return checks.length === 0 ? "all of no checks (passes)" : checks.map(stateCheckText).join(" and ");
  }
  const siblings = edges.filter((other) => other.source === edge.source);
  if (siblings.find(isUnconditional) !== edge) return "never taken: an earlier unconditional edge wins";
  return siblings.some((other) => !isUnconditional(other)) ? "otherwise" : "always";
}

/** `ask ─[verify_result == True]→ push (handover: transcript_prepend)`; END as `END`. */
export function describeEdge(edge: ScenarioEdge, edges: readonly ScenarioEdge[]): string {
  const target = edge.target === END ? "END" : edge.target;
  const handover =
    edge.handover_callable !== undefined ? CALLABLE : edge.handover === null ? null : edge.handover;
  const suffix = handover === null ? "" : ` (handover: ${handover})`;
  return `${edge.source} ─[${describeEdgeCondition(edge, edges)}]→ ${target}${suffix}`;
}

function nodeFilterText(filter: NodeFilter): string {
  if (filter === null) return "";
  if (typeof filter === "string") return ` at ${filter}`;
  return filter.length === 0 ? " at no node" : ` at one of ${filter.join(", ")}`;
}

/** Which turns a scope selects: `last turn`, `turn[1]`, `every turn at push`, … */
export function describeScope(scope: Scope): string {
  switch (scope.type) {
    case "last_turn":
      return "last turn";
    case "first_turn":
      return "first turn";
    case "turn_at":
      return `turn[${scope.index}]`;
    case "any_turn":
      return `any turn${nodeFilterText(scope.node_id)}`;
    case "all_turns":
      return `every turn${nodeFilterText(scope.node_id)}`;
  }
}

const COMPARISONS = { eq: "==", neq: "!=", gt: ">", gte: ">=", lt: "<", lte: "<=", contains: "contains" };

function turnFilterText(filter: NodeFilter, verifyResult: boolean | null): string {
  const verdict = verifyResult === null ? "" : ` with verify_result == ${valueText(verifyResult)}`;
  return `${nodeFilterText(filter)}${verdict}`;
}

const isAggregation = (node: OutcomeNode) => node.type === "count_turns" || node.type === "first_match_index";

/**
 * An outcome check in one line. Compositions nest in parentheses (`at least 1 of (A; B)`); a cross-turn
 * comparison reads `target OP source`, as it is evaluated.
 * For instance `at least 1 of (result status ExactMatch 'completed'; result turn_count >= 3.0)`.
 */
export function describeOutcomeNode(node: OutcomeNode): string {
  const children = (conditions: OutcomeNode[]) =>
    `(${conditions
      .map((child) =>
        isAggregation(child)
          ? `${describeOutcomeNode(child)} [false here: a count inside a composition]`
          : describeOutcomeNode(child),
      )
      .join("; ")})`;
  switch (node.type) {
    case "turn_check":
      return `${describeScope(node.scope)}: ${describeCheck(node.field, node.verify_with, node.expected)}`;
    case "result_check":
      return `result ${describeCheck(node.field, node.verify_with, node.expected)}`;
    case "cross_turn_check": {
      const normalize =
        node.normalize.length === 0
          ? ""
          : ` (normalized: ${node.normalize.map((n) => (typeof n === "string" ? n : valueText(n))).join(", ")})`;
      return (
        `${describeScope(node.target_turn)} ${node.target_field} ${COMPARISONS[node.comparison]} ` +
        `${describeScope(node.source_turn)} ${node.source_field}${normalize}`
      );
    }
    case "all_of":
      return `all of ${children(node.conditions)}`;
    case "any_of":
      return `any of ${children(node.conditions)}`;
    case "at_least_n":
      return `at least ${node.n} of ${children(node.conditions)}`;
    case "count_turns":
      return `number of turns${turnFilterText(node.node_id, node.verify_result)}`;
    case "first_match_index":
      return `index of the first turn${turnFilterText(node.node_id, node.verify_result)} (-1 if none)`;
  }
}

/**
 * What a criterion evaluates (§4.14): its declarative check (which wins), else its `evaluate` (a Python source
 * or a TypeScript function), else nothing (no result is recorded).
 */
export function describeOutcome(criterion: ScenarioOutcomeCriterion): string {
  if (criterion.check !== null) return describeOutcomeNode(criterion.check);
  if (criterion.evaluate !== undefined && criterion.evaluate_source === null) return CALLABLE;
  if (criterion.evaluate_source !== null) return pythonSource(criterion.evaluate_source);
  return "nothing to evaluate (no result is recorded)";
}
