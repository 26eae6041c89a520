import { ScenarioError, type ScenarioErrorLocation } from "./errors.js";
import { MAX_OUTCOME_NESTING } from "./scenario-schema.js";

/**
 * Refuses an outcome check whose compositions (`conditions` lists) nest deeper than
 * {@link MAX_OUTCOME_NESTING}, before anything recursive (validation, encoding, evaluation) walks it and
 * overflows the stack. Works on the raw JSON and on built nodes alike (a check that contains itself counts as
 * too deep); iterative, so it cannot overflow.
 * @throws {ScenarioError} naming the depth and the limit.
 */
export function checkOutcomeNesting(check: unknown, at: ScenarioErrorLocation = {}): void {
  const stack: { node: unknown; depth: number }[] = [{ node: check, depth: 1 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop() as { node: unknown; depth: number };
    if (node === null || typeof node !== "object") continue;
    const children = (node as { conditions?: unknown }).conditions;
    if (!Array.isArray(children)) continue;
    if (depth >= MAX_OUTCOME_NESTING) {
      throw new ScenarioError(
        `outcome compositions (all_of / any_of / at_least_n) nest deeper than ${MAX_OUTCOME_NESTING} levels; flatten the check`,
        at,
      );
    }
    for (const child of children) stack.push({ node: child, depth: depth + 1 });
  }
}
