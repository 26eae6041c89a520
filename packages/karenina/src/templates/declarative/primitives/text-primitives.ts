import { z } from "zod";
import {
  type PythonRegexRunOptions,
  pythonDeadline,
  type RegexOperation,
  type RegexResults,
  runRegex,
  type TranslatedRegex,
  translatePythonRegex,
} from "../../../python-regex/index.js";
import { VerificationError } from "../errors.js";
import { pyEquals, pyStr, pyTruthy } from "../python-values.js";
import { compileNormalizers, normalizeParam } from "./normalizers.js";
import { definePrimitive, param } from "./primitive.js";

/** Spec 02 §6.2: `bool(extracted) == bool(expected)`; a null side passes only if both are null. */
export const BooleanMatch = definePrimitive({
  name: "BooleanMatch",
  description: "Boolean equality by Python truthiness; null matches only null.",
  params: z.object({}),
  appliesTo: ["bool"],
  isTrace: false,
  create: () => ({
    check: (extracted, expected) =>
      extracted == null || expected == null
        ? extracted == null && expected == null
        : pyTruthy(extracted) === pyTruthy(expected),
  }),
});

/** Spec 02 §6.2: `norm(str(extracted)) == norm(str(expected))`. */
export const ExactMatch = definePrimitive({
  name: "ExactMatch",
  description: "String equality of str() of both values after normalization.",
  params: z.object({ normalize: normalizeParam(["lowercase", "strip"]) }),
  appliesTo: ["str", "int", "float"],
  isTrace: false,
  create: ({ normalize }) => {
    const norm = compileNormalizers(normalize);
    return { check: (extracted, expected) => norm(pyStr(extracted)) === norm(pyStr(expected)) };
  },
});

const substringsParams = z.object({ substrings: param.strList(), normalize: normalizeParam([]) });

function containsCheck(mode: "any" | "all", { substrings, normalize }: z.output<typeof substringsParams>) {
  const norm = compileNormalizers(normalize);
  return {
    check: (extracted: unknown) => {
      const text = norm(pyStr(extracted));
      const found = (substring: string) => text.includes(norm(substring));
      return mode === "any" ? substrings.some(found) : substrings.every(found);
    },
  };
}

/** Spec 02 §6.2: some normalized substring occurs in the normalized text (ignores the ground truth). */
export const ContainsAny = definePrimitive({
  name: "ContainsAny",
  description: "Passes when any of the substrings occurs in the value (ground truth ignored).",
  params: substringsParams,
  appliesTo: ["str"],
  isTrace: false,
  create: (params) => containsCheck("any", params),
});

/** Spec 02 §6.2: every normalized substring occurs in the normalized text (ignores the ground truth). */
export const ContainsAll = definePrimitive({
  name: "ContainsAll",
  description: "Passes when all of the substrings occur in the value (ground truth ignored).",
  params: substringsParams,
  appliesTo: ["str"],
  isTrace: false,
  create: (params) => containsCheck("all", params),
});

/** Python `re` flag constants, by attribute name, as inline-flag letters (`""` for flags that change nothing). */
const RE_FLAGS: Record<string, string> = {
  I: "i",
  IGNORECASE: "i",
  M: "m",
  MULTILINE: "m",
  S: "s",
  DOTALL: "s",
  X: "x",
  VERBOSE: "x",
  A: "a",
  ASCII: "a",
  U: "u",
  UNICODE: "u",
  L: "L",
  LOCALE: "L",
  NOFLAG: "",
  DEBUG: "",
};

/** A Python pattern with `re` flag names applied as a leading inline-flag group; unknown names are ignored. */
function withPythonFlags(pattern: string, flags: readonly string[]): string {
  const letters = [
    ...new Set(flags.map((flag) => (Object.hasOwn(RE_FLAGS, flag) ? RE_FLAGS[flag] : ""))),
  ].join("");
  return letters === "" ? pattern : `(?${letters})${pattern}`;
}

/** A Python pattern bound once, run many times; see {@link lazyRegex}. */
export type LazyRegex = <Op extends RegexOperation>(
  op: Op,
  text: string,
  options?: Pick<PythonRegexRunOptions, "timeoutMs">,
) => RegexResults[Op];

/**
 * Translates a Python pattern once, on first use, and runs it off the host's thread under a deadline (a
 * checkpoint's pattern may backtrack catastrophically); an invalid pattern fails every use, as Python's `re`
 * raises on each call, and a timeout fails that use with a RegexTimeoutError.
 */
export function lazyRegex(pattern: string): LazyRegex {
  let translated: TranslatedRegex | null = null;
  return (op, text, options = {}) => {
    translated ??= translatePythonRegex(pattern);
    return runRegex(op, translated, text, pythonDeadline(pattern, options.timeoutMs));
  };
}

/** Spec 02 §6.2: `re.search(pattern, str(extracted), flags)` (ignores the ground truth). */
export const RegexMatch = definePrimitive({
  name: "RegexMatch",
  description: "Python re.search of the pattern in str() of the value (ground truth ignored).",
  params: z.object({ pattern: param.str(), flags: param.strList().default(() => []) }),
  appliesTo: ["str"],
  isTrace: false,
  create: ({ pattern, flags }) => {
    const regex = lazyRegex(withPythonFlags(pattern, flags));
    return { check: (extracted) => regex("test", pyStr(extracted)) };
  },
});

/** Spec 02 §6.2: needs embeddings; `check()` always raises, so `verify()` fails with an error. */
export const SemanticMatch = definePrimitive({
  name: "SemanticMatch",
  description: "Embedding similarity; not available in field verification (check always raises).",
  params: z.object({ threshold: param.float().default(0.85) }),
  appliesTo: ["str"],
  isTrace: false,
  create: () => ({
    check: () => {
      throw new VerificationError(
        "NotImplementedError",
        "SemanticMatch requires an embedding model and cannot run inside verify()",
      );
    },
  }),
});

/** Spec 02 §6.2: Python `extracted == expected`. */
export const LiteralMatch = definePrimitive({
  name: "LiteralMatch",
  description: "Python equality of the value and the ground truth (case-sensitive).",
  params: z.object({}),
  appliesTo: ["literal", "str"],
  isTrace: false,
  create: () => ({ check: pyEquals }),
});
