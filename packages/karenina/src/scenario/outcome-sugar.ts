import { createPrimitive, type Normalizer } from "../templates/index.js";
import { ScenarioError } from "./errors.js";
import type {
  AllOf,
  AnyOf,
  AtLeastN,
  CountTurns,
  CrossTurnCheck,
  CrossTurnComparison,
  FirstMatchIndex,
  NodeFilter,
  OutcomeNode,
  ResultCheck,
  Scope,
  TurnCheck,
} from "./scenario-schema.js";
import { sugarPrimitive } from "./shorthand.js";

/**
 * The original's outcome helpers (spec 08 §2.9): `last_turn(verify_result=True)` is
 * `lastTurn({ verify_result: true })`. One field gives its TurnCheck; several give an `all_of` of them in
 * key order. The primitive is inferred from the value (see `sugarPrimitive`).
 */
function turnChecks(
  helper: string,
  scope: Scope,
  fields: Readonly<Record<string, unknown>>,
): TurnCheck | AllOf {
  const checks: TurnCheck[] = Object.entries(fields).map(([field, expected]) => ({
    type: "turn_check",
    scope: { ...scope },
    field,
    expected,
    verify_with: sugarPrimitive(expected),
  }));
  if (checks.length === 0) {
    throw new ScenarioError(
      `${helper}() needs at least one field to check, e.g. ${helper}({ verify_result: true })`,
    );
  }
  return checks.length === 1 ? (checks[0] as TurnCheck) : { type: "all_of", conditions: checks };
}

/** Checks on the last turn: `lastTurn({ verify_result: true })`. */
export const lastTurn = (fields: Readonly<Record<string, unknown>>) =>
  turnChecks("lastTurn", { type: "last_turn" }, fields);

/** Checks on the first turn. */
export const firstTurn = (fields: Readonly<Record<string, unknown>>) =>
  turnChecks("firstTurn", { type: "first_turn" }, fields);

/** Checks that pass on at least one turn (of `node`, a node id or ids, when given). */
export const anyTurn = (fields: Readonly<Record<string, unknown>>, options: { node?: NodeFilter } = {}) =>
  turnChecks("anyTurn", { type: "any_turn", node_id: options.node ?? null }, fields);

/** Checks that pass on every turn (of `node` when given). */
export const allTurns = (fields: Readonly<Record<string, unknown>>, options: { node?: NodeFilter } = {}) =>
  turnChecks("allTurns", { type: "all_turns", node_id: options.node ?? null }, fields);

/** The execution ended with this status (case-insensitive ExactMatch). */
export const statusIs = (status: string): ResultCheck => ({
  type: "result_check",
  field: "status",
  expected: status,
  verify_with: createPrimitive("ExactMatch"),
});

/** Exactly `n` turns ran. */
export const turnCountEq = (n: number): ResultCheck => ({
  type: "result_check",
  field: "turn_count",
  expected: n,
  verify_with: createPrimitive("NumericExact"),
});

/** At least `n` turns ran. */
export const turnCountGte = (n: number): ResultCheck => ({
  type: "result_check",
  field: "turn_count",
  expected: null,
  verify_with: createPrimitive("NumericRange", { min: n }),
});

/** Filters of the aggregation nodes: the turns of `node` (an id or ids), with this `verifyResult`. */
export interface TurnFilter {
  node?: NodeFilter;
  verifyResult?: boolean | null;
}

/** How many turns match the filter (an int outcome). */
export const countTurns = (filter: TurnFilter = {}): CountTurns => ({
  type: "count_turns",
  node_id: filter.node ?? null,
  verify_result: filter.verifyResult ?? null,
});

/** The index of the first matching turn, −1 if none (an int outcome). */
export const firstMatchIndex = (filter: TurnFilter = {}): FirstMatchIndex => ({
  type: "first_match_index",
  node_id: filter.node ?? null,
  verify_result: filter.verifyResult ?? null,
});

/** Compares a field of one turn with a field of another. */
export const crossTurn = (options: {
  source: Scope;
  sourceField: string;
  target: Scope;
  targetField: string;
  comparison: CrossTurnComparison;
  normalize?: Normalizer[] | null;
}): CrossTurnCheck => ({
  type: "cross_turn_check",
  source_turn: options.source,
  source_field: options.sourceField,
  target_turn: options.target,
  target_field: options.targetField,
  comparison: options.comparison,
  normalize: options.normalize ?? [],
});

/** The first turn, as a scope. */
export const firstTurnScope = (): Scope => ({ type: "first_turn" });
/** The last turn, as a scope. */
export const lastTurnScope = (): Scope => ({ type: "last_turn" });
/** The turn at `index` (negative counts from the end). */
export const turnAt = (index: number): Scope => ({ type: "turn_at", index });

/** Every condition passes (an empty list passes). */
export const allOf = (...conditions: OutcomeNode[]): AllOf => ({ type: "all_of", conditions });
/** At least one condition passes (an empty list fails). */
export const anyOf = (...conditions: OutcomeNode[]): AnyOf => ({ type: "any_of", conditions });
/** At least `n` conditions pass. */
export const atLeastN = (n: number, ...conditions: OutcomeNode[]): AtLeastN => ({
  type: "at_least_n",
  n,
  conditions,
});
