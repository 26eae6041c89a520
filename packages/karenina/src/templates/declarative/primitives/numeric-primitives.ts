import { z } from "zod";
import { pyFloat } from "../python-values.js";
import { definePrimitive, param } from "./primitive.js";

/** Spec 02 §6.3: `float(extracted) == float(expected)`. */
export const NumericExact = definePrimitive({
  name: "NumericExact",
  description: "float() of both values are equal.",
  params: z.object({}),
  appliesTo: ["int", "float"],
  isTrace: false,
  create: () => ({ check: (extracted, expected) => pyFloat(extracted) === pyFloat(expected) }),
});

/** Spec 02 §6.3: absolute `|e−x| ≤ tol`, or relative `|e−x|/|x| ≤ tol` (with x = 0 only an exact hit passes). */
export const NumericTolerance = definePrimitive({
  name: "NumericTolerance",
  description: "Numbers within an absolute or relative tolerance.",
  params: z.object({ tolerance: param.float(), mode: param.mode().default("relative") }),
  appliesTo: ["float"],
  isTrace: false,
  create: ({ tolerance, mode }) => ({
    check: (extracted, expected) => {
      const e = pyFloat(extracted);
      const x = pyFloat(expected);
      const d = Math.abs(e - x);
      if (mode === "absolute") return d <= tolerance;
      return x === 0 ? d === 0 : d / Math.abs(x) <= tolerance;
    },
  }),
});

/** Spec 02 §6.3: the value lies within optional bounds (ground truth ignored). */
export const NumericRange = definePrimitive({
  name: "NumericRange",
  description: "The value lies within the optional bounds (ground truth ignored).",
  params: z.object({
    min: param.float().nullable().default(null),
    max: param.float().nullable().default(null),
    exclusive_min: param.bool().default(false),
    exclusive_max: param.bool().default(false),
  }),
  appliesTo: ["int", "float"],
  isTrace: false,
  create: ({ min, max, exclusive_min, exclusive_max }) => ({
    check: (extracted) => {
      const v = pyFloat(extracted);
      if (min !== null && (exclusive_min ? v <= min : v < min)) return false;
      return max === null || (exclusive_max ? v < max : v <= max);
    },
  }),
});

/**
 * Spec 02 §6.3: a one-sided bound whose threshold is the ground truth: `NumericMinimum` (`≥`, `>` when
 * exclusive) and `NumericMaximum` (`≤`, `<` when exclusive).
 */
function thresholdPrimitive(name: string, description: string, side: "min" | "max") {
  return definePrimitive({
    name,
    description,
    params: z.object({ exclusive: param.bool().default(false) }),
    appliesTo: null,
    isTrace: false,
    create: ({ exclusive }) => ({
      check: (extracted, expected) => {
        // Compared directly, not by subtraction: inf - inf is NaN, while inf >= inf holds in Python.
        const [low, high] =
          side === "min" ? [pyFloat(expected), pyFloat(extracted)] : [pyFloat(extracted), pyFloat(expected)];
        return exclusive ? high > low : high >= low;
      },
    }),
  });
}

export const NumericMinimum = thresholdPrimitive(
  "NumericMinimum",
  "The value is at least the ground truth.",
  "min",
);
export const NumericMaximum = thresholdPrimitive(
  "NumericMaximum",
  "The value is at most the ground truth.",
  "max",
);
