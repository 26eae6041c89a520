import { z } from "zod";
import { VerificationError } from "./errors.js";
import type { Primitive } from "./primitives/primitive.js";
import { primitiveFromJson } from "./primitives/registry.js";
import { pyStr, pyTruthy } from "./python-values.js";

/** `GroundTruthCase(value, verify_with=None)` serialized (spec 02 §5.2). */
export const GroundTruthCaseSchema = z.strictObject({
  value: z.unknown(),
  verify_with: z.record(z.string(), z.unknown()).nullable().default(null),
});

/** `ConditionalGroundTruth(source, cases, default)` as stored in a VerifiedField's ground truth (spec 02 §5.2). */
export const ConditionalGroundTruthSchema = z.strictObject({
  source: z.string(),
  cases: z.record(z.string(), GroundTruthCaseSchema),
  default: GroundTruthCaseSchema,
  __conditional__: z.literal(true),
});

export type ConditionalGroundTruth = z.output<typeof ConditionalGroundTruthSchema>;

/** Whether a ground truth is a serialized ConditionalGroundTruth (`{"__conditional__": true, …}`). */
export function isConditional(groundTruth: unknown): groundTruth is Record<string, unknown> {
  return (
    groundTruth !== null &&
    typeof groundTruth === "object" &&
    !Array.isArray(groundTruth) &&
    pyTruthy((groundTruth as Record<string, unknown>).__conditional__)
  );
}

/**
 * Follows a dot path (`node_results.triage.parsed.severity`) through nested objects; a missing key, a null or
 * a non-object on the way gives null.
 * @example
 * resolveSource("node_results.a.b", { node_results: { a: { b: 3 } } }); // 3
 * resolveSource("node_results.a.x", { node_results: { a: null } }); // null
 */
export function resolveSource(source: string, context: Readonly<Record<string, unknown>>): unknown {
  let current: unknown = context;
  for (const key of source.split(".")) {
    if (
      current === null ||
      typeof current !== "object" ||
      Array.isArray(current) ||
      !Object.hasOwn(current, key)
    ) {
      return null;
    }
    current = (current as Record<string, unknown>)[key];
  }
  return current ?? null;
}

/** The ground truth (and the primitive replacing the field's, if any) chosen for one verification. */
export interface ResolvedCase {
  value: unknown;
  primitive: Primitive | null;
}

/** Picks the case for a scenario context; throws the error Python raises when the conditional is malformed. */
export type ConditionalResolver = (
  scenarioContext: Readonly<Record<string, unknown>> | undefined,
) => ResolvedCase;

function compileCase(data: z.output<typeof GroundTruthCaseSchema>): () => ResolvedCase {
  if (data.verify_with === null) return () => ({ value: data.value, primitive: null });
  try {
    const primitive = primitiveFromJson(data.verify_with);
    return () => ({ value: data.value, primitive });
  } catch (error) {
    const message = (error as Error).message;
    return () => {
      throw new VerificationError("ValueError", message);
    };
  }
}

/**
 * Compiles a serialized conditional ground truth once (spec 02 §5.3): outside a scenario, or when the source
 * resolves to null, the default case; else `cases[str(value)]` with Python's `str()` (`True`, `1.0`), falling
 * back to the default. A malformed conditional, or a case whose primitive cannot be built, fails when used.
 * @example
 * const resolve = compileConditional({ source: "node_results.t", cases: { True: { value: 3, verify_with: null } }, default: { value: 1, verify_with: null }, __conditional__: true });
 * resolve({ node_results: { t: true } }).value; // 3
 * resolve(undefined).value; // 1
 */
export function compileConditional(groundTruth: Record<string, unknown>): ConditionalResolver {
  const parsed = ConditionalGroundTruthSchema.safeParse(groundTruth);
  if (!parsed.success) {
    const message = `Invalid conditional ground truth: ${parsed.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ")}`;
    return () => {
      throw new VerificationError("ValueError", message);
    };
  }
  const { source, cases, default: fallback } = parsed.data;
  const compiledCases = new Map(Object.entries(cases).map(([key, data]) => [key, compileCase(data)]));
  const compiledDefault = compileCase(fallback);
  return (scenarioContext) => {
    if (scenarioContext === undefined) return compiledDefault();
    const value = resolveSource(source, scenarioContext);
    if (value === null) return compiledDefault();
    return (compiledCases.get(pyStr(value)) ?? compiledDefault)();
  };
}
