/**
 * Base class of every error the library throws on purpose. Callers tell errors apart with `instanceof`,
 * or with {@link KareninaError.isInstance} where objects may cross copies of the module.
 */
const ERROR_MARK: unique symbol = Symbol.for("karenina.error") as never;

export class KareninaError extends Error {
  override readonly name: string = "KareninaError";
  readonly [ERROR_MARK] = true;

  static isInstance(value: unknown): value is KareninaError {
    return typeof value === "object" && value !== null && ERROR_MARK in value;
  }
}

/** A short, readable rendering of a found value for error messages ("a string \"x\"", "null", "an array of 3"). */
export function describeValue(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return `an array of ${value.length}`;
  switch (typeof value) {
    case "string": {
      const shown = value.length > 60 ? `${value.slice(0, 57)}...` : value;
      return `a string ${JSON.stringify(shown)}`;
    }
    case "number":
      return `the number ${value}`;
    case "boolean":
      return `the boolean ${value}`;
    case "object":
      return "an object";
    default:
      return typeof value;
  }
}
