import { z } from "zod";
import { pyFloat } from "../python-values.js";
import { definePrimitive, param } from "./primitive.js";

type Decay = "linear" | "quadratic";

/** Credit left after a fraction `r` of the shoulder: linear `1 − r`, quadratic `1 − r²`. */
function decayed(decay: Decay, r: number): number {
  return decay === "linear" ? 1 - r : 1 - r * r;
}

/** Credit for a gap past an edge with a shoulder of the given width (no shoulder: no credit). */
function shoulderCredit(gap: number, shoulder: number, decay: Decay): number {
  if (gap <= 0) return 1;
  if (!(shoulder > 0) || gap >= shoulder) return 0;
  return decayed(decay, gap / shoulder);
}

const gradedParams = z
  .object({
    cutoff: param.positiveFloat(),
    full_credit: param.float().nullable().default(null),
    mode: param.mode().default("relative"),
    decay: param.decay().default("linear"),
  })
  .superRefine(({ cutoff, full_credit }, ctx) => {
    if (full_credit === null) return;
    if (full_credit < 0) {
      ctx.addIssue({ code: "custom", path: [], message: "Value error, full_credit must be >= 0" });
    } else if (full_credit >= cutoff) {
      ctx.addIssue({
        code: "custom",
        path: [],
        message: "Value error, full_credit must be less than cutoff",
      });
    }
  });

/**
 * Spec 02 §6.4: distance from the ground truth (absolute, or relative to it), passing within the gate
 * (`full_credit` if set, else `cutoff`), with credit decaying from `full_credit` to `cutoff`.
 */
export const NumericGraded = definePrimitive({
  name: "NumericGraded",
  description: "Distance to the ground truth with partial credit decaying up to a cutoff.",
  params: gradedParams,
  appliesTo: null,
  isTrace: false,
  create: ({ cutoff, full_credit, mode, decay }) => {
    const distance = (extracted: unknown, expected: unknown): number | null => {
      const e = pyFloat(extracted);
      const x = pyFloat(expected);
      if (mode === "absolute") return Math.abs(e - x);
      if (x === 0) return e === x ? 0 : null;
      return Math.abs(e - x) / Math.abs(x);
    };
    const inner = full_credit ?? 0;
    return {
      check: (extracted, expected) => {
        const d = distance(extracted, expected);
        return d !== null && d <= (full_credit ?? cutoff);
      },
      score: (extracted, expected) => {
        const d = distance(extracted, expected);
        if (d === null || d >= cutoff) return 0;
        return d <= inner ? 1 : decayed(decay, (d - inner) / (cutoff - inner));
      },
    };
  },
});

/** Spec 02 §6.4: inside a band (honouring exclusivity), with credit decaying over a margin outside it. */
export const NumericRangeGraded = definePrimitive({
  name: "NumericRangeGraded",
  description: "The value lies in a band, with partial credit decaying over a margin outside it.",
  params: z
    .object({
      min: param.float(),
      max: param.float(),
      margin: param.positiveFloat(),
      mode: param.mode().default("absolute"),
      decay: param.decay().default("linear"),
      exclusive_min: param.bool().default(false),
      exclusive_max: param.bool().default(false),
    })
    .superRefine(({ min, max }, ctx) => {
      if (!(min < max))
        ctx.addIssue({ code: "custom", path: [], message: "Value error, min must be less than max" });
    }),
  appliesTo: null,
  isTrace: false,
  create: ({ min, max, margin, mode, decay, exclusive_min, exclusive_max }) => {
    const shoulder = mode === "absolute" ? margin : margin * (max - min);
    return {
      check: (extracted) => {
        const v = pyFloat(extracted);
        return (exclusive_min ? v > min : v >= min) && (exclusive_max ? v < max : v <= max);
      },
      score: (extracted) => {
        const v = pyFloat(extracted);
        return shoulderCredit(v < min ? min - v : v - max, shoulder, decay);
      },
    };
  },
});

/** Spec 02 §6.4: on the right side of the ground-truth threshold, with credit decaying over a margin past it. */
export const NumericThresholdGraded = definePrimitive({
  name: "NumericThresholdGraded",
  description:
    "The value is on the right side of the ground truth, with partial credit over a margin past it.",
  params: z.object({
    direction: z.enum(["max", "min"], { error: "Input should be 'max' or 'min'" }),
    margin: param.positiveFloat(),
    mode: param.mode().default("relative"),
    decay: param.decay().default("linear"),
    exclusive: param.bool().default(false),
  }),
  appliesTo: null,
  isTrace: false,
  create: ({ direction, margin, mode, decay, exclusive }) => ({
    check: (extracted, expected) => {
      const t = pyFloat(expected);
      const v = pyFloat(extracted);
      if (direction === "max") return exclusive ? v < t : v <= t;
      return exclusive ? v > t : v >= t;
    },
    score: (extracted, expected) => {
      const t = pyFloat(expected);
      const v = pyFloat(extracted);
      const gap = direction === "max" ? v - t : t - v;
      return shoulderCredit(gap, mode === "absolute" ? margin : margin * Math.abs(t), decay);
    },
  }),
});
