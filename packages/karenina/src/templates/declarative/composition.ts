import { z } from "zod";
import { stringRepr } from "../../python-repr/index.js";
import { VerificationError } from "./errors.js";
import type { VerifyStrategySpec } from "./template-spec.js";

/** A composition node as the original's template domain has it (spec 02 §7.1). */
export type StrategyNode =
  | { type: "field_check"; field: string }
  | { type: "all_of"; conditions: StrategyNode[] }
  | { type: "any_of"; conditions: StrategyNode[] }
  | { type: "at_least_n"; n: number; conditions: StrategyNode[] };

const conditions = () => z.array(StrategyNodeSchema).default([]);

/**
 * The runtime strategy tree (`FieldCheck`, `AllOf`, `AnyOf`, `AtLeastN`), discriminated by `type`.
 * @example
 * StrategyNodeSchema.parse({ type: "all_of" }); // { type: "all_of", conditions: [] }
 */
export const StrategyNodeSchema: z.ZodType<StrategyNode, unknown> = z.lazy(() =>
  z.discriminatedUnion("type", [
    z.object({ type: z.literal("field_check"), field: z.string() }),
    z.object({ type: z.literal("all_of"), conditions: conditions() }),
    z.object({ type: z.literal("any_of"), conditions: conditions() }),
    z.object({ type: z.literal("at_least_n"), n: z.int().min(0), conditions: conditions() }),
  ]),
);

/**
 * Evaluates a strategy on per-field results (spec 02 §7.3): a field passes only when its result is `true`;
 * empty AllOf passes, empty AnyOf fails, AtLeastN counts passing children.
 * @throws VerificationError (KeyError) for a FieldCheck on a field the template does not have.
 * @example
 * evaluateStrategy({ type: "any_of", conditions: [{ type: "field_check", field: "a" }] }, { a: null }); // false
 */
export function evaluateStrategy(
  node: StrategyNode,
  results: Readonly<Record<string, boolean | null>>,
): boolean {
  switch (node.type) {
    case "field_check":
      if (!Object.hasOwn(results, node.field))
        throw new VerificationError("KeyError", stringRepr(node.field));
      return results[node.field] === true;
    case "all_of":
      return node.conditions.every((child) => evaluateStrategy(child, results));
    case "any_of":
      return node.conditions.some((child) => evaluateStrategy(child, results));
    case "at_least_n":
      return node.conditions.filter((child) => evaluateStrategy(child, results)).length >= node.n;
  }
}

/** A field's weight and its score (null counts as 0). */
export interface WeightedScore {
  weight: number;
  score: number | null;
}

/**
 * `verify_granular()` of a VerifiedField template (spec 02 §2.5): only the root node's type matters —
 * weighted mean by default, the best weighted score for AnyOf, the `n` best for AtLeastN; 0 when the weights
 * sum to 0.
 * @example
 * const fields = [{ weight: 2, score: 1 }, { weight: 2, score: 0 }, { weight: 1, score: 1 }];
 * granularScore(null, fields); // 0.6
 * granularScore({ type: "any_of", conditions: [] }, fields); // 0.4
 */
export function granularScore(root: StrategyNode | null, fields: readonly WeightedScore[]): number {
  const total = fields.reduce((sum, field) => sum + field.weight, 0);
  if (total === 0) return 0;
  const weighted = fields.map((field) => field.weight * (field.score ?? 0));
  if (root?.type === "any_of") return Math.max(...weighted) / total;
  if (root?.type === "at_least_n") {
    const best = [...weighted].sort((a, b) => b - a).slice(0, root.n);
    return best.reduce((sum, value) => sum + value, 0) / total;
  }
  return weighted.reduce((sum, value) => sum + value, 0) / total;
}

/** The result's `composition_strategy` label: `all_of`, `any_of`, `at_least_n(N)` or `field_check`. */
export function compositionLabel(root: StrategyNode): string {
  return root.type === "at_least_n" ? `at_least_n(${root.n})` : root.type;
}

/** What is wrong with a builder strategy node, as `verify_strategy…: message` lines (empty when fine). */
export function strategySpecProblems(node: VerifyStrategySpec, path = "verify_strategy"): string[] {
  const own =
    node.type === "field_check" && node.field_name === null
      ? [`${path}: 'field_check' requires 'field_name'`]
      : node.type === "at_least_n" && (node.n === null || node.n < 0)
        ? [`${path}: 'at_least_n' requires 'n' >= 0`]
        : [];
  return [
    ...own,
    ...node.conditions.flatMap((child, i) => strategySpecProblems(child, `${path}.conditions[${i}]`)),
  ];
}

/**
 * Converts the builder's node (`field_name`) into the runtime node (`field`), spec 02 §9.1. Check it with
 * {@link strategySpecProblems} first: a missing `field_name` or `n` becomes `""` or 0.
 */
export function strategyFromSpec(node: VerifyStrategySpec): StrategyNode {
  const children = node.conditions.map(strategyFromSpec);
  switch (node.type) {
    case "field_check":
      return { type: "field_check", field: node.field_name ?? "" };
    case "at_least_n":
      return { type: "at_least_n", n: node.n ?? 0, conditions: children };
    default:
      return { type: node.type, conditions: children };
  }
}

/** Converts a runtime node into the builder's form. */
export function strategyToSpec(node: StrategyNode): VerifyStrategySpec {
  if (node.type === "field_check")
    return { type: node.type, n: null, field_name: node.field, conditions: [] };
  return {
    type: node.type,
    n: node.type === "at_least_n" ? node.n : null,
    field_name: null,
    conditions: node.conditions.map(strategyToSpec),
  };
}
