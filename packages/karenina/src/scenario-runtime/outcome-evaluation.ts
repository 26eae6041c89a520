import type {
  CrossTurnCheck,
  NodeFilter,
  OutcomeNode,
  ResultCheck,
  ScenarioOutcomeCriterion,
  Scope,
  TurnCheck,
} from "../scenario/index.js";
import { compileNormalizers, pyEquals, pyStr, VerificationError } from "../templates/index.js";
import { ScenarioRuntimeError } from "./errors.js";
import { checkValue, describeError } from "./primitive-check.js";
import { pyOrderingHolds } from "./python-ordering.js";
import type { OutcomeResults, ScenarioExecutionResult, TurnRecord } from "./runtime-types.js";
import type { ScenarioCallables } from "./scenario-callables.js";
import { resolveResultField, resolveTurnField } from "./state-paths.js";

type Warn = (message: string) => void;

/** The value of an outcome node: a boolean for checks and compositions, a number for aggregations. */
export type OutcomeValue = boolean | number;

/**
 * Evaluates one outcome node on a finished execution (spec 08 §4.14 `evaluate_outcome`). `count_turns` and
 * `first_match_index` give numbers; the rest is a boolean composition walk (`all_of` of nothing is true,
 * `any_of` of nothing false, both short-circuit; `at_least_n` evaluates every child). An exception in any leaf
 * makes the whole node false (quirk Q43), reported through `warn`; so does an aggregation used as a child.
 */
export function evaluateOutcome(
  node: OutcomeNode,
  result: ScenarioExecutionResult,
  warn?: Warn,
): OutcomeValue {
  try {
    return outcomeValue(node, result, warn ?? (() => {}));
  } catch (error) {
    warn?.(`An outcome check raised ${describeError(error)}; it evaluates to false`);
    return false;
  }
}

/** As {@link evaluateOutcome}, letting a leaf's exception through. */
function outcomeValue(node: OutcomeNode, result: ScenarioExecutionResult, warn: Warn): OutcomeValue {
  if (node.type === "count_turns") return result.history.filter((turn) => turnPasses(turn, node)).length;
  if (node.type === "first_match_index") return result.history.findIndex((turn) => turnPasses(turn, node));
  return compositionHolds(node, result, warn);
}

function compositionHolds(node: OutcomeNode, result: ScenarioExecutionResult, warn: Warn): boolean {
  switch (node.type) {
    case "all_of":
      return node.conditions.every((child) => compositionHolds(child, result, warn));
    case "any_of":
      return node.conditions.some((child) => compositionHolds(child, result, warn));
    case "at_least_n": {
      let passing = 0;
      for (const child of node.conditions) if (compositionHolds(child, result, warn)) passing++;
      return passing >= node.n;
    }
    case "turn_check":
      return turnCheckHolds(node, result.history);
    case "result_check":
      return resultCheckHolds(node, result);
    case "cross_turn_check":
      return crossTurnHolds(node, result.history);
    default:
      warn(
        `An outcome composition holds a '${node.type}' aggregation, which is not a check; it counts as false`,
      );
      return false;
  }
}

/** The CountTurns / FirstMatchIndex filter: node id (one, several, any) and verify_result (`==`, null = any). */
function turnPasses(
  turn: TurnRecord,
  filter: { node_id: NodeFilter; verify_result: boolean | null },
): boolean {
  if (!nodeMatches(turn, filter.node_id)) return false;
  return filter.verify_result === null || turn.verify_result === filter.verify_result;
}

function nodeMatches(turn: TurnRecord, nodeId: NodeFilter): boolean {
  if (nodeId === null) return true;
  return typeof nodeId === "string" ? turn.node_id === nodeId : nodeId.includes(turn.node_id);
}

/** Python `history[index]`: negative indexes count from the end; out of range is undefined. */
function turnAt(history: readonly TurnRecord[], index: number): TurnRecord | undefined {
  return history[index < 0 ? history.length + index : index];
}

/** The one turn a scope names, or undefined (empty history, out of range, or a many-turn scope). */
function singleTurn(scope: Scope, history: readonly TurnRecord[]): TurnRecord | undefined {
  switch (scope.type) {
    case "last_turn":
      return history.at(-1);
    case "first_turn":
      return history[0];
    case "turn_at":
      return turnAt(history, scope.index);
    default:
      return undefined;
  }
}

function turnCheckHolds(check: TurnCheck, history: readonly TurnRecord[]): boolean {
  const holds = (turn: TurnRecord) =>
    checkValue(check.verify_with, resolveTurnField(check.field, turn), check.expected);
  const scope = check.scope;
  if (scope.type === "any_turn" || scope.type === "all_turns") {
    const selected = history.filter((turn) => nodeMatches(turn, scope.node_id));
    if (selected.length === 0) return false;
    return scope.type === "any_turn" ? selected.some(holds) : selected.every(holds);
  }
  const turn = singleTurn(scope, history);
  return turn !== undefined && holds(turn);
}

function resultCheckHolds(check: ResultCheck, result: ScenarioExecutionResult): boolean {
  return checkValue(check.verify_with, resolveResultField(check.field, result), check.expected);
}

/** `target OP source` with Python semantics; an ordering Python refuses (TypeError) is false. */
function crossTurnHolds(check: CrossTurnCheck, history: readonly TurnRecord[]): boolean {
  const sourceTurn = singleTurn(check.source_turn, history);
  const targetTurn = singleTurn(check.target_turn, history);
  if (sourceTurn === undefined || targetTurn === undefined) return false;
  let source = resolveTurnField(check.source_field, sourceTurn);
  let target = resolveTurnField(check.target_field, targetTurn);
  if (check.normalize.length > 0) {
    const normalize = compileNormalizers(check.normalize);
    source = normalize(pyStr(source));
    target = normalize(pyStr(target));
  }
  switch (check.comparison) {
    case "eq":
      return pyEquals(target, source);
    case "neq":
      return !pyEquals(target, source);
    case "contains":
      return pyStr(target).includes(pyStr(source));
    default:
      try {
        return pyOrderingHolds(check.comparison, target, source);
      } catch (error) {
        if (error instanceof VerificationError && error.pythonType === "TypeError") return false;
        throw error;
      }
  }
}

/** What outcome criteria need besides the result. */
export interface OutcomeCriteriaOptions {
  /** Runs `evaluate_source` strings; null when the scenario has none. */
  readonly callables: ScenarioCallables | null;
  /** Receives a message per criterion that has nothing to evaluate, raised, or returned a non-value. */
  warn(message: string): void;
}

/**
 * Evaluates a scenario's outcome criteria, in order, on a finished execution (spec 08 §4.14): the declarative
 * `check` when set, else a TypeScript `evaluate` (in process), else `evaluate_source` (through `callables`).
 * A criterion with none of them is left out, with a warning. Anything that throws, or a callable returning
 * something other than a boolean, a number or null, gives `false` with a warning. The criteria see
 * `outcome_results` as `{}` (quirk Q44); a repeated name keeps its first position and its last value.
 * @throws ScenarioRuntimeError a criterion relies on `evaluate_source` and no `callables` runner was given.
 */
export async function evaluateOutcomeCriteria(
  criteria: readonly ScenarioOutcomeCriterion[],
  result: ScenarioExecutionResult,
  options: OutcomeCriteriaOptions,
): Promise<OutcomeResults> {
  const seen: ScenarioExecutionResult = { ...result, outcome_results: {} };
  const outcomes: OutcomeResults = {};
  for (const criterion of criteria) {
    const value = await criterionValue(criterion, seen, options);
    if (value === undefined) continue;
    Object.defineProperty(outcomes, criterion.name, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return outcomes;
}

/** A criterion's value, or undefined when it has nothing to evaluate. */
async function criterionValue(
  criterion: ScenarioOutcomeCriterion,
  result: ScenarioExecutionResult,
  options: OutcomeCriteriaOptions,
): Promise<boolean | number | null | undefined> {
  const { check, evaluate, evaluate_source: source } = criterion;
  if (check === null && evaluate === undefined && source === null) {
    options.warn(
      `Outcome criterion '${criterion.name}' has neither a check nor an evaluate callable; skipped`,
    );
    return undefined;
  }
  if (check === null && evaluate === undefined && options.callables === null) {
    throw new ScenarioRuntimeError(
      `Outcome criterion '${criterion.name}' is Python source, and no runner for scenario callables was given: ` +
        "pass a SandboxScenarioCallables when the scenario has callable sources",
    );
  }
  try {
    if (check !== null) return outcomeValue(check, result, options.warn);
    const value =
      evaluate !== undefined
        ? await evaluate(result)
        : await options.callables?.evaluate(source as string, result);
    if (value === undefined || value === null) return null;
    if (typeof value === "boolean" || typeof value === "number") return value;
    options.warn(
      `Outcome criterion '${criterion.name}' returned ${typeof value === "string" ? "a string" : Array.isArray(value) ? "a list" : `a ${typeof value}`} ` +
        "instead of a boolean, a number or None; it evaluates to false",
    );
    return false;
  } catch (error) {
    options.warn(
      `Outcome criterion '${criterion.name}' raised ${describeError(error)}; it evaluates to false`,
    );
    return false;
  }
}
