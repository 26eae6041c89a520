import { PrimitiveError } from "../errors.js";
import { DateMatch, DateRange, DateTolerance } from "./date-primitives.js";
import { NumericGraded, NumericRangeGraded, NumericThresholdGraded } from "./graded-primitives.js";
import { OrderedMatch, SetContainment } from "./list-primitives.js";
import {
  NumericExact,
  NumericMaximum,
  NumericMinimum,
  NumericRange,
  NumericTolerance,
} from "./numeric-primitives.js";
import {
  floatParameters,
  type Primitive,
  type PrimitiveDefinition,
  parsePrimitiveParams,
  type SerializedPrimitive,
} from "./primitive.js";
import {
  BooleanMatch,
  ContainsAll,
  ContainsAny,
  ExactMatch,
  LiteralMatch,
  RegexMatch,
  SemanticMatch,
} from "./text-primitives.js";
import { TraceContains, TraceLength, TraceRegex } from "./trace-primitives.js";

/** The 23 primitives of the original (spec 02 §1.1, §6), by class name. */
export const PRIMITIVES: Readonly<Record<string, PrimitiveDefinition>> = Object.fromEntries(
  [
    BooleanMatch,
    ExactMatch,
    ContainsAny,
    ContainsAll,
    RegexMatch,
    SemanticMatch,
    NumericExact,
    NumericTolerance,
    NumericGraded,
    NumericRangeGraded,
    NumericThresholdGraded,
    NumericMinimum,
    NumericMaximum,
    NumericRange,
    SetContainment,
    OrderedMatch,
    LiteralMatch,
    DateMatch,
    DateTolerance,
    DateRange,
    TraceRegex,
    TraceContains,
    TraceLength,
  ].map((definition) => [definition.name, definition as unknown as PrimitiveDefinition]),
);

/** The primitive names, sorted A→Z as the original lists them in messages. */
export const PRIMITIVE_NAMES: readonly string[] = Object.keys(PRIMITIVES).sort();

/** The definition of a primitive by class name, or undefined. */
export function primitiveDefinition(name: string): PrimitiveDefinition | undefined {
  return Object.hasOwn(PRIMITIVES, name) ? PRIMITIVES[name] : undefined;
}

/**
 * Builds a primitive from its class name and parameters (Pydantic validation: lax coercion, defaults,
 * constraints, unknown keys ignored).
 * @throws PrimitiveError when the parameters are invalid.
 * @example
 * createPrimitive("SetContainment", { mode: "superset" }).toJSON(); // { mode: "superset", min_overlap: null, type: "SetContainment" }
 */
export function createPrimitive(name: string, data: Record<string, unknown> = {}): Primitive {
  const definition = primitiveDefinition(name);
  if (!definition) throw new PrimitiveError(`Unknown primitive type: '${name}'`);
  const params = Object.freeze(parsePrimitiveParams(definition, data));
  const behaviour = definition.create(params);
  const toJSON = (): SerializedPrimitive => ({ ...structuredClone(params), type: name });
  if ("checkTrace" in behaviour) {
    return { type: name, params, isTrace: true, toJSON, checkTrace: behaviour.checkTrace };
  }
  const { check } = behaviour;
  const score =
    behaviour.score ?? ((extracted: unknown, expected: unknown) => (check(extracted, expected) ? 1 : 0));
  return { type: name, params, isTrace: false, toJSON, check, score };
}

/**
 * Rebuilds a primitive from its serialized form (`verify_with`, spec 02 §4.1).
 * @throws PrimitiveError `Primitive data missing 'type' key`, `Unknown primitive type: '<name>'`, or the
 *   parameters' validation error.
 * @example
 * primitiveFromJson({ type: "ExactMatch" }).toJSON(); // { normalize: ["lowercase", "strip"], type: "ExactMatch" }
 */
export function primitiveFromJson(data: unknown): Primitive {
  if (data === null || typeof data !== "object" || Array.isArray(data) || !("type" in data)) {
    throw new PrimitiveError("Primitive data missing 'type' key");
  }
  const { type, ...params } = data as Record<string, unknown>;
  return createPrimitive(String(type), params);
}

const floatParams = new Map<string, Set<string>>();

/** The parameters of a primitive declared as Python floats (`tolerance`, `min`, …), which print as `2.0`. */
export function primitiveFloatParameters(name: string): ReadonlySet<string> {
  const definition = primitiveDefinition(name);
  if (!definition) return new Set();
  let names = floatParams.get(name);
  if (!names) {
    names = floatParameters(definition);
    floatParams.set(name, names);
  }
  return names;
}
