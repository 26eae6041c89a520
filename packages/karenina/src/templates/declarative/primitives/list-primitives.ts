import { z } from "zod";
import { VerificationError } from "../errors.js";
import { pyHashKey, pyIterate, pyLen, pyStr } from "../python-values.js";
import { compileNormalizers, normalizeParam } from "./normalizers.js";
import { definePrimitive, param } from "./primitive.js";

/** Python `set(value)` as a set of hash keys (a str gives its characters, a dict its keys). */
function pySet(value: unknown): Set<string> {
  return new Set(pyIterate(value).map(pyHashKey));
}

const isSubset = (a: Set<string>, b: Set<string>) => [...a].every((key) => b.has(key));

/**
 * Spec 02 §6.5: Python set comparison, `exact` / `subset` / `superset` / `overlap` (at least `min_overlap`
 * shared elements, 0 counting as 1); another mode fails when checked.
 */
export const SetContainment = definePrimitive({
  name: "SetContainment",
  description: "Python set comparison of the value and the ground truth: exact, subset, superset or overlap.",
  params: z.object({
    mode: param.str().default("exact"),
    min_overlap: param.int().nullable().default(null),
  }),
  appliesTo: ["list_str"],
  isTrace: false,
  create: ({ mode, min_overlap }) => ({
    check: (extracted, expected) => {
      const e = pySet(extracted);
      const x = pySet(expected);
      switch (mode) {
        case "exact":
          return e.size === x.size && isSubset(e, x);
        case "subset":
          return isSubset(e, x);
        case "superset":
          return isSubset(x, e);
        case "overlap":
          return [...e].filter((key) => x.has(key)).length >= (min_overlap || 1);
        default:
          throw new VerificationError("ValueError", `Unknown mode: ${mode}`);
      }
    },
  }),
});

/** Spec 02 §6.5: same length, then pairwise `norm(str(e_i)) == norm(str(x_i))`. */
export const OrderedMatch = definePrimitive({
  name: "OrderedMatch",
  description: "Same length and pairwise equal after normalization, in order.",
  params: z.object({ normalize: normalizeParam(["lowercase", "strip"]) }),
  appliesTo: ["list_str"],
  isTrace: false,
  create: ({ normalize }) => {
    const norm = compileNormalizers(normalize);
    return {
      check: (extracted, expected) => {
        if (pyLen(extracted) !== pyLen(expected)) return false;
        const e = pyIterate(extracted);
        const x = pyIterate(expected);
        return e.every((item, i) => norm(pyStr(item)) === norm(pyStr(x[i])));
      },
    };
  },
});
