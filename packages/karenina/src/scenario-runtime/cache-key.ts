import { createHash } from "node:crypto";
import type { Message } from "../llm/index.js";

/** Rebuilds plain objects with their keys sorted, so equal messages serialize alike whatever their key order. */
function sortKeys(_key: string, value: unknown): unknown {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) sorted[key] = (value as Record<string, unknown>)[key];
  return sorted;
}

/**
 * One string per message for {@link scenarioCacheKey}: canonical JSON (keys sorted at every depth, no
 * whitespace). The original hashes Python reprs, which no other process can reproduce (spec 08 §5.5), so only
 * determinism matters here.
 */
export function historyKeyStrings(history: readonly Message[]): string[] {
  return history.map((message) => JSON.stringify(message, sortKeys));
}

/**
 * The answer-cache key of one scenario turn (spec 08 §5.5): `<scenario>_<node>_<model>_<h>` plus `_rep<N>`
 * for a replicate, where `h` is the first 16 hex characters of SHA-256 of the history strings joined with `|`.
 * `modelId` is the answering model's id, else its model name, else `"unknown"` (the caller picks).
 * @example
 * scenarioCacheKey("s", "n", "claude", ["hi"], null); // "s_n_claude_8f434346648f6b96"
 * scenarioCacheKey("s", "n", "claude", ["hi", "there"], 3); // "s_n_claude_f97d41979d9529cb_rep3"
 */
export function scenarioCacheKey(
  scenarioId: string,
  nodeId: string,
  modelId: string,
  history: readonly string[],
  replicate: number | null = null,
): string {
  const digest = createHash("sha256").update(history.join("|"), "utf8").digest("hex").slice(0, 16);
  const key = `${scenarioId}_${nodeId}_${modelId}_${digest}`;
  return replicate === null ? key : `${key}_rep${replicate}`;
}
