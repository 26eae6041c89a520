import { canonicalKey } from "./model-identity.js";
import type { VerificationResult } from "./verification-result.js";

/**
 * The identity of a result row across runs (spec 06 §1.8, without the run name): question, answering and
 * parsing canonical keys, replicate and scenario position. Two runs of the same tasks give the same keys.
 */
export function rowKey(result: VerificationResult): string {
  const { metadata } = result;
  return JSON.stringify([
    metadata.question_id,
    canonicalKey(metadata.answering),
    canonicalKey(metadata.parsing),
    metadata.replicate,
    metadata.scenario_id,
    metadata.scenario_node,
    metadata.scenario_turn,
  ]);
}
