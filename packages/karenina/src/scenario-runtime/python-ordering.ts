import { PyFloat } from "../python-repr/index.js";
import { pyEquals, VerificationError } from "../templates/index.js";

/** An ordering comparison of a CrossTurnCheck. */
export type OrderingOperator = "gt" | "gte" | "lt" | "lte";

const SYMBOLS: Readonly<Record<OrderingOperator, string>> = { gt: ">", gte: ">=", lt: "<", lte: "<=" };

/** The number Python orders a bool, int or float by; undefined for anything else. */
function numberOf(value: unknown): number | undefined {
  if (typeof value === "number") return value;
  if (typeof value === "boolean") return Number(value);
  if (value instanceof PyFloat) return value.value;
  return undefined;
}

function typeName(value: unknown): string {
  if (value === null || value === undefined) return "NoneType";
  if (typeof value === "boolean") return "bool";
  if (typeof value === "string") return "str";
  if (Array.isArray(value)) return "list";
  if (value instanceof PyFloat || (typeof value === "number" && !Number.isInteger(value))) return "float";
  if (typeof value === "number") return "int";
  return "dict";
}

function holds(operator: OrderingOperator, a: number, b: number): boolean {
  switch (operator) {
    case "gt":
      return a > b;
    case "gte":
      return a >= b;
    case "lt":
      return a < b;
    case "lte":
      return a <= b;
  }
}

/** Python string order: by code points (JS `<` compares UTF-16 units, which differs above U+D7FF). */
function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    if (a.charCodeAt(i) !== b.charCodeAt(i)) return (a.codePointAt(i) ?? 0) - (b.codePointAt(i) ?? 0);
  }
  return a.length - b.length;
}

/**
 * Python `a OP b` for `>`, `>=`, `<`, `<=` on JSON-shaped values: numbers (bools included) numerically, strings
 * by code points, lists lexicographically (the first unequal items decide, else the lengths).
 * @throws VerificationError (TypeError) where Python raises: None, dicts, or mismatched types such as str vs int.
 */
export function pyOrderingHolds(operator: OrderingOperator, a: unknown, b: unknown): boolean {
  const x = numberOf(a);
  const y = numberOf(b);
  if (x !== undefined && y !== undefined) return holds(operator, x, y);
  if (typeof a === "string" && typeof b === "string") return holds(operator, compareCodePoints(a, b), 0);
  if (Array.isArray(a) && Array.isArray(b)) {
    const length = Math.min(a.length, b.length);
    for (let i = 0; i < length; i++) {
      if (!pyEquals(a[i], b[i])) return pyOrderingHolds(operator, a[i], b[i]);
    }
    return holds(operator, a.length, b.length);
  }
  throw new VerificationError(
    "TypeError",
    `'${SYMBOLS[operator]}' not supported between instances of '${typeName(a)}' and '${typeName(b)}'`,
  );
}
