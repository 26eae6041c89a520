import { createPrimitive, type Primitive, pyRepr } from "../templates/index.js";
import { ScenarioError } from "./errors.js";
import type { StateCheck } from "./scenario-schema.js";

/** The comparison operators of an edge shorthand's operator map, sorted as the original lists them. */
export const SHORTHAND_OPERATORS = ["eq", "gt", "gte", "lt", "lte"] as const;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** `['a', 'b']`: sorted keys as Python prints them. */
const sortedKeys = (object: object) => pyRepr(Object.keys(object).sort());

/** The primitive and expected value of an operator map (`{"gte": 3}`). */
function operatorCheck(operators: Record<string, unknown>): { verify_with: Primitive; expected: unknown } {
  const keys = Object.keys(operators);
  if (keys.length !== 1) {
    throw new ScenarioError(
      `Operator dict must have exactly one key, got ${keys.length}: ${sortedKeys(operators)}`,
    );
  }
  const op = keys[0] as string;
  const value = operators[op];
  switch (op) {
    case "gte":
      return { verify_with: createPrimitive("NumericRange", { min: value }), expected: null };
    case "gt":
      return {
        verify_with: createPrimitive("NumericRange", { min: value, exclusive_min: true }),
        expected: null,
      };
    case "lte":
      return { verify_with: createPrimitive("NumericRange", { max: value }), expected: null };
    case "lt":
      return {
        verify_with: createPrimitive("NumericRange", { max: value, exclusive_max: true }),
        expected: null,
      };
    case "eq":
      return { verify_with: createPrimitive("NumericExact"), expected: value };
    default:
      throw new ScenarioError(`Unknown operator '${op}'. Supported: ${pyRepr([...SHORTHAND_OPERATORS])}`);
  }
}

/**
 * One edge shorthand `{path: value}` as a StateCheck (spec 08 §2.8, the original's `_normalize_state_check`):
 * an operator map → NumericRange/NumericExact, a boolean → BooleanMatch, a string → ExactMatch
 * (case-insensitive), a number → NumericExact, an array → SetContainment, anything else → ExactMatch.
 * @throws {ScenarioError} `State check dict must have exactly one key, got 2: ['a', 'b']`, and the operator map's errors.
 * @example
 * stateCheckFromShorthand({ "node_visits.retry": { gte: 3 } }); // NumericRange(min=3.0), expected null
 */
export function stateCheckFromShorthand(shorthand: Record<string, unknown>): StateCheck {
  const keys = Object.keys(shorthand);
  if (keys.length !== 1) {
    throw new ScenarioError(
      `State check dict must have exactly one key, got ${keys.length}: ${sortedKeys(shorthand)}`,
    );
  }
  const field = keys[0] as string;
  const value = shorthand[field];
  if (isPlainObject(value)) return { type: "state_check", field, ...operatorCheck(value) };
  return { type: "state_check", field, expected: value, verify_with: shorthandPrimitive(value) };
}

function shorthandPrimitive(value: unknown): Primitive {
  if (typeof value === "boolean") return createPrimitive("BooleanMatch");
  if (typeof value === "string") return createPrimitive("ExactMatch");
  if (typeof value === "number") return createPrimitive("NumericExact");
  if (Array.isArray(value)) return createPrimitive("SetContainment");
  return createPrimitive("ExactMatch");
}

/**
 * The primitive the outcome helpers (`lastTurn({...})`, …) infer from a value (spec 08 §2.9): boolean →
 * BooleanMatch, string → ExactMatch, number → NumericExact, anything else (arrays included) → ExactMatch.
 */
export function sugarPrimitive(value: unknown): Primitive {
  if (typeof value === "boolean") return createPrimitive("BooleanMatch");
  if (typeof value === "number") return createPrimitive("NumericExact");
  return createPrimitive("ExactMatch");
}

/** Python's `type(x).__name__` for a value, as the original's "Unsupported ... type" messages show it. */
export function pythonTypeName(value: unknown): string {
  if (value === null || value === undefined) return "NoneType";
  if (typeof value === "boolean") return "bool";
  if (typeof value === "number") return Number.isInteger(value) ? "int" : "float";
  if (typeof value === "bigint") return "int";
  if (typeof value === "string") return "str";
  if (Array.isArray(value)) return "list";
  if (typeof value === "function") return "function";
  if (typeof value === "object") return (value as object).constructor?.name ?? "object";
  return typeof value;
}
