import { z } from "zod";
import { VerificationError } from "../errors.js";
import { pyCollapseWhitespace, pyStrip, removePunctuation } from "../python-values.js";

/** `SynonymMap(mapping=…)`: a whole-string lookup, serialized as `{"mapping": {...}}` (spec 02 §6.1). */
export const SynonymMapSchema = z.object({
  mapping: z.record(z.string(), z.string({ error: "Input should be a valid string" })),
});
export type SynonymMap = z.infer<typeof SynonymMapSchema>;

/** One entry of a `normalize` list: a normalizer name or a SynonymMap. */
export const NormalizerSchema = z.union([z.string(), SynonymMapSchema], {
  error: "Input should be a valid string or a SynonymMap",
});
export type Normalizer = z.infer<typeof NormalizerSchema>;

/** A `normalize` parameter with its default. */
export const normalizeParam = (defaults: readonly Normalizer[]) =>
  z.array(NormalizerSchema, { error: "Input should be a valid list" }).default(() => [...defaults]);

const NAMED: Record<string, (text: string) => string> = {
  lowercase: (text) => text.toLowerCase(),
  strip: pyStrip,
  remove_punctuation: removePunctuation,
  collapse_whitespace: pyCollapseWhitespace,
};

function step(normalizer: Normalizer): (text: string) => string {
  if (typeof normalizer !== "string") {
    const mapping = new Map(Object.entries(normalizer.mapping));
    return (text) => mapping.get(text) ?? text;
  }
  const named = Object.hasOwn(NAMED, normalizer) ? NAMED[normalizer] : undefined;
  if (named) return named;
  return () => {
    throw new VerificationError("ValueError", `Unknown normalizer: '${normalizer}'`);
  };
}

/**
 * Compiles a `normalize` list into one function applied left to right. An unknown name fails when applied,
 * not here, as in the original.
 * @example
 * compileNormalizers(["lowercase", { mapping: { "bcl-2": "bcl2" } }])("BCL-2"); // "bcl2"
 */
export function compileNormalizers(normalizers: readonly Normalizer[]): (text: string) => string {
  const steps = normalizers.map(step);
  return (text) => {
    let out = text;
    for (const apply of steps) out = apply(out);
    return out;
  };
}
