import { z } from "zod";
import { pySplit } from "../python-values.js";
import { definePrimitive, param } from "./primitive.js";
import { lazyRegex } from "./text-primitives.js";

/** Spec 02 §6.7: `len(re.findall(pattern, raw))` is ≥ `count_min` when set, else > 0. */
export const TraceRegex = definePrimitive({
  name: "TraceRegex",
  description: "The raw response matches the pattern (at least count_min times when set).",
  params: z.object({ pattern: param.str(), count_min: param.int().nullable().default(null) }),
  appliesTo: ["bool"],
  isTrace: true,
  create: ({ pattern, count_min }) => {
    const regex = lazyRegex(pattern);
    return {
      checkTrace: (raw) => {
        const n = regex("count", raw);
        return count_min === null ? n > 0 : n >= count_min;
      },
    };
  },
});

/** Spec 02 §6.7: case-sensitive substring of the raw response. */
export const TraceContains = definePrimitive({
  name: "TraceContains",
  description: "The raw response contains the substring (case-sensitive).",
  params: z.object({ substring: param.str() }),
  appliesTo: ["bool"],
  isTrace: true,
  create: ({ substring }) => ({ checkTrace: (raw) => raw.includes(substring) }),
});

/** Spec 02 §6.7: length in whitespace-separated words (`unit == "words"`) or code points, inclusive bounds. */
export const TraceLength = definePrimitive({
  name: "TraceLength",
  description: "The raw response's length in characters or words lies within the bounds.",
  params: z.object({
    min: param.int().nullable().default(null),
    max: param.int().nullable().default(null),
    unit: param.str().default("chars"),
  }),
  appliesTo: ["bool"],
  isTrace: true,
  create: ({ min, max, unit }) => ({
    checkTrace: (raw) => {
      const length = unit === "words" ? pySplit(raw).length : Array.from(raw).length;
      return (min === null || length >= min) && (max === null || length <= max);
    },
  }),
});
