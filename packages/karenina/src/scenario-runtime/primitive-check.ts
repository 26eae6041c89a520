import { PythonExecutionError } from "../sandbox/index.js";
import { type Primitive, VerificationError } from "../templates/index.js";

/**
 * `verify_with.check(value, expected)`. A trace primitive has no value check: it raises NotImplementedError,
 * as in the original.
 * @throws VerificationError where the primitive raises in Python (e.g. NumericExact on null: TypeError).
 */
export function checkValue(primitive: Primitive, value: unknown, expected: unknown): boolean {
  if (primitive.isTrace) {
    throw new VerificationError(
      "NotImplementedError",
      `${primitive.type} checks the raw response and cannot check a value`,
    );
  }
  return primitive.check(value, expected);
}

/** An error as a warning shows it: `TypeError: float() argument must be …`. */
export function describeError(error: unknown): string {
  if (error instanceof VerificationError) return `${error.pythonType}: ${error.message}`;
  if (error instanceof PythonExecutionError) return error.message;
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}
